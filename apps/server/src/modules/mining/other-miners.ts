// The miners other modules create and stop (docs/economy.md): a device's, created when the device is
// activated and started by its first valid heartbeat; a held node's; a pledge's. The device, node and
// pledge modules call these through mining/index.ts.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { miners } from './schema.ts';

const big = (text: string | null | undefined): bigint => (text == null ? 0n : BigInt(text));

export interface NewDeviceMiner {
  userId: number;
  deviceId: number;
  basePower: bigint;
  giftPower: bigint;
  status: 3 | 4;
  startsEpoch: number;
}

export async function insertDeviceMiner(tx: Tx, m: NewDeviceMiner, now: Date): Promise<number> {
  const rows = await tx
    .insert(miners)
    .values({ ...m, kind: 'device', payMethod: null, createdAt: now })
    .returning({ id: miners.id });
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('miner insert returned no row');
  return id;
}

/** Unknown (4) → running (3) for the device's miner; answers it with its power when this call made the change. */
export async function startDeviceMiner(tx: Tx, deviceId: number): Promise<{ id: number; userId: number; power: bigint } | null> {
  const rows = await tx
    .update(miners)
    .set({ status: 3 })
    .where(and(eq(miners.deviceId, deviceId), eq(miners.status, 4)))
    .returning({ id: miners.id, userId: miners.userId, basePower: miners.basePower, giftPower: miners.giftPower });
  const row = rows[0];
  return row ? { id: row.id, userId: row.userId, power: row.basePower + row.giftPower } : null;
}

/** A running miner of kind 'node' carrying the tier's gift power (counted by the mining settlement). */
export async function insertNodeMiner(
  tx: Tx,
  m: { userId: number; power: bigint; payMethod: string; flowId: number; epoch: number; now: Date },
): Promise<number> {
  const rows = rowsOf<{ id: string }>(
    await tx.execute(sql`
      insert into miners (user_id, kind, status, base_power, gift_power, pay_method, flow_id, starts_epoch, created_at)
      values (${m.userId}, 'node', 3, ${m.power.toString()}::bigint, 0, ${m.payMethod}, ${m.flowId}, ${m.epoch}, ${m.now})
      returning id::text as id`),
  );
  return Number(rows[0]?.id);
}

export interface NewPledgeMiner {
  userId: number;
  power: bigint;
  flowId: number;
  startsEpoch: number;
  endsEpoch: number | null;
  now: Date;
}

/** The miner carrying a pledge's power (kind 'pledge', running), so the mining settlement counts it. */
export async function insertPledgeMiner(tx: Tx, m: NewPledgeMiner): Promise<number> {
  const rows = rowsOf<{ id: string }>(
    await tx.execute(sql`
      insert into miners (user_id, kind, status, base_power, gift_power, pay_method, flow_id, starts_epoch, ends_epoch, created_at)
      values (${m.userId}, 'pledge', 3, ${m.power.toString()}::bigint, 0, 'balance', ${m.flowId}, ${m.startsEpoch}, ${m.endsEpoch}, ${m.now})
      returning id::text as id`),
  );
  return Number(rows[0]?.id);
}

/** A pledge miner stops (status 2, paused) when its principal leaves; answers the power it carried. */
export async function endPledgeMiner(tx: Tx, minerId: number): Promise<bigint> {
  const rows = rowsOf<{ power: string }>(
    await tx.execute(sql`update miners set status = 2 where id = ${minerId} and kind = 'pledge' and status = 3 returning base_power::text as power`),
  );
  return big(rows[0]?.power);
}

/** The base power of these miners, by id (a node's view shows what its miner carries). */
export async function minerBasePowers(db: Db | Tx, ids: readonly number[]): Promise<Map<number, bigint>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: miners.id, basePower: miners.basePower })
    .from(miners)
    .where(inArray(miners.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r.basePower]));
}
