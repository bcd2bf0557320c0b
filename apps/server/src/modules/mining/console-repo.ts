// What the operator console (docs/operator.md "Console API") and other modules read of settled
// mining epochs and miners; they call these through mining/index.ts.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

/** A user's latest miners with their power. */
export async function userMiners(db: Db, userId: number, limit: number) {
  return rowsOf<{ id: number; kind: string; status: string; power: string; created_at: Date | string }>(
    await db.execute(
      sql`select id, kind::text as kind, status::text as status, (base_power + gift_power)::text as power, created_at from miners where user_id = ${userId} order by id desc limit ${limit}`,
    ),
  );
}

/** The latest settled epochs (the dashboard's). */
export async function recentMiningEpochs(db: Db, limit: number) {
  return rowsOf<{ epoch: number; paid: string; network_power: string; settled_at: Date | string; duration_ms: number | null }>(
    await db.execute(
      sql`select epoch, paid::text as paid, network_power::text as network_power, settled_at, duration_ms from mining_epochs order by epoch desc limit ${limit}`,
    ),
  );
}

/** A page of settled epochs, newest first, and how many there are. */
export async function miningEpochPage(db: Db, page: number, pageSize: number) {
  const rows = rowsOf<{
    epoch: number;
    starts_at: Date | string;
    ends_at: Date | string;
    settled_at: Date | string;
    duration_ms: number | null;
    network_power: string;
    paid: string;
  }>(
    await db.execute(
      sql`select epoch, starts_at, ends_at, settled_at, duration_ms, network_power::text as network_power, paid::text as paid
          from mining_epochs order by epoch desc limit ${pageSize} offset ${(page - 1) * pageSize}`,
    ),
  );
  const total = Number(rowsOf<{ n: string | number }>(await db.execute(sql`select count(*) as n from mining_epochs`))[0]?.n ?? 0);
  return { rows, total };
}

/** What a settled epoch could pay and the network power it counted (undefined: not settled). */
export async function miningEpochFigures(db: Db, epoch: number) {
  return rowsOf<{ payable: string; network_power: string }>(
    await db.execute(sql`select payable::text as payable, network_power::text as network_power from mining_epochs where epoch = ${epoch}`),
  )[0];
}
