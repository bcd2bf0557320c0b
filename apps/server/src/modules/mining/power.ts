// A user's power and its log: every change writes one power_log row with before and after, under
// the user_power row's lock (an upsert), so concurrent changes of one user serialize.
import { sql } from 'drizzle-orm';
import type { PowerLogType } from '@nadi/api/mining';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

export interface PowerChange {
  userId: number;
  type: PowerLogType;
  /** Centi-power; negative takes power away. */
  delta: bigint;
  minerId?: number | null;
  epoch?: number | null;
  now: Date;
}

/** Applies one change of a user's power and logs it; answers the power before and after. */
export async function changePower(tx: Db | Tx, change: PowerChange): Promise<{ before: bigint; after: bigint }> {
  // One statement (the new power and its log row): purchases write it while holding the treasury.
  const delta = sql`${change.delta.toString()}::bigint`;
  const rows = rowsOf<{ power: string }>(
    await tx.execute(sql`
      with changed as (
        insert into user_power (user_id, power, updated_at) values (${change.userId}, ${delta}, ${change.now})
        on conflict (user_id) do update set power = user_power.power + excluded.power, updated_at = excluded.updated_at
        returning power
      ),
      logged as (
        insert into power_log (user_id, type, miner_id, before, after, epoch, created_at)
        select ${change.userId}, ${change.type}, ${change.minerId ?? null}, power - ${delta}, power, ${change.epoch ?? null}, ${change.now} from changed
      )
      select power::text as power from changed`),
  );
  const after = BigInt(rows[0]?.power ?? '0');
  const before = after - change.delta;
  return { before, after };
}
