// Held nodes, wallet orders for nodes and what nodes earned, in SQL (docs/nodes-and-savings.md).
// Reads of a user's rows name the owner beside the id: another user's row is simply not found.
import { and, asc, count, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { nodeEarnings, nodeOrders, userNodes } from './schema.ts';
import { minerBasePowers, miningEpochFigures } from '../mining/index.ts';

export type HoldingRow = typeof userNodes.$inferSelect;
export type NodeOrderRow = typeof nodeOrders.$inferSelect;
export type NewHolding = Omit<typeof userNodes.$inferInsert, 'id'>;

export async function insertHolding(tx: Tx, holding: NewHolding): Promise<HoldingRow> {
  const rows = await tx.insert(userNodes).values(holding).returning();
  if (!rows[0]) throw new Error('holding insert returned no row');
  return rows[0];
}

export async function setHoldingMiner(tx: Tx, holdingId: number, minerId: number): Promise<HoldingRow> {
  const rows = await tx.update(userNodes).set({ minerId }).where(eq(userNodes.id, holdingId)).returning();
  if (!rows[0]) throw new Error(`holding ${holdingId} vanished`);
  return rows[0];
}

export async function findHoldingByKey(db: Db | Tx, requestKey: string): Promise<HoldingRow | null> {
  const rows = await db.select().from(userNodes).where(eq(userNodes.requestKey, requestKey)).limit(1);
  return rows[0] ?? null;
}

/** The holding if it is `userId`'s (null for anyone else's, exactly like a missing one). */
export async function findHolding(db: Db | Tx, id: number, userId: number): Promise<HoldingRow | null> {
  const rows = await db
    .select()
    .from(userNodes)
    .where(and(eq(userNodes.id, id), eq(userNodes.userId, userId)))
    .limit(1);
  return rows[0] ?? null;
}

export async function insertNodeOrder(tx: Tx, order: typeof nodeOrders.$inferInsert): Promise<NodeOrderRow> {
  const rows = await tx.insert(nodeOrders).values(order).returning();
  if (!rows[0]) throw new Error('node order insert returned no row');
  return rows[0];
}

export async function findOrderByKey(db: Db | Tx, requestKey: string): Promise<NodeOrderRow | null> {
  const rows = await db.select().from(nodeOrders).where(eq(nodeOrders.requestKey, requestKey)).limit(1);
  return rows[0] ?? null;
}

export async function lockOrderOfPayment(tx: Tx, paymentOrderId: number): Promise<NodeOrderRow | null> {
  const rows = await tx.select().from(nodeOrders).where(eq(nodeOrders.paymentOrderId, paymentOrderId)).for('update');
  return rows[0] ?? null;
}

export async function updateNodeOrder(tx: Tx, paymentOrderId: number, set: Partial<NodeOrderRow>): Promise<void> {
  await tx.update(nodeOrders).set(set).where(eq(nodeOrders.paymentOrderId, paymentOrderId));
}

/** Whether a purchase under this request key exists (a holding, or a wallet order). */
export async function isKeyUsed(db: Db | Tx, requestKey: string): Promise<boolean> {
  const rows = rowsOf<{ used: boolean }>(
    await db.execute(sql`
      select exists (select 1 from user_nodes where request_key = ${requestKey})
          or exists (select 1 from node_orders where request_key = ${requestKey}) as used`),
  );
  return rows[0]?.used === true;
}

/** Unpaid wallet orders whose hold has passed, locked; skips any a payment is being fulfilled for. */
export async function lockExpiredOrders(tx: Tx, now: Date, limit: number): Promise<NodeOrderRow[]> {
  return tx
    .select()
    .from(nodeOrders)
    .where(and(eq(nodeOrders.status, 'unpaid'), lte(nodeOrders.expiresAt, now)))
    .orderBy(asc(nodeOrders.paymentOrderId))
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function markExpired(tx: Tx, paymentOrderIds: number[]): Promise<void> {
  if (paymentOrderIds.length === 0) return;
  await tx
    .update(nodeOrders)
    .set({ status: 'expired' })
    .where(and(inArray(nodeOrders.paymentOrderId, paymentOrderIds), eq(nodeOrders.status, 'unpaid')));
}

/** A held node as "my nodes" shows it: its tier, its power and what it has earned in all. */
export interface HoldingView {
  holding: HoldingRow;
  levelId: number;
  name: string;
  giftPower: bigint;
  miningIncome: bigint;
  dividendNadi: bigint;
  dividendUsdt: bigint;
}

const holdingView = sql`
  select n.id, n.miner_id, t.level_id, t.name, t.gift_power::text as gift_power,
         coalesce(e.mining_income, 0)::text as mining_income, coalesce(e.dividend_nadi, 0)::text as dividend_nadi,
         coalesce(e.dividend_usdt, 0)::text as dividend_usdt
    from user_nodes n
    join node_tiers t on t.id = n.tier_id
    left join lateral (
      select sum(mining_income) as mining_income, sum(dividend_nadi) as dividend_nadi, sum(dividend_usdt) as dividend_usdt
        from node_earnings where holding_id = n.id
    ) e on true`;

/** Views of these holdings (in the order given). The gift power is what the holding's miner carries (the tier's before it has one). */
export async function holdingViews(db: Db | Tx, holdings: HoldingRow[]): Promise<HoldingView[]> {
  if (holdings.length === 0) return [];
  const ids = holdings.map((h) => sql`${h.id}::bigint`);
  const rows = rowsOf<{
    id: string;
    miner_id: string | number | null;
    level_id: number;
    name: string;
    gift_power: string;
    mining_income: string;
    dividend_nadi: string;
    dividend_usdt: string;
  }>(await db.execute(sql`${holdingView} where n.id in (${sql.join(ids, sql`, `)})`));
  const minerPower = await minerBasePowers(
    db,
    rows.flatMap((r) => (r.miner_id === null ? [] : [Number(r.miner_id)])),
  );
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return holdings.map((holding) => {
    const r = byId.get(holding.id);
    if (!r) throw new Error(`holding ${holding.id} has no tier`);
    return {
      holding,
      levelId: Number(r.level_id),
      name: r.name,
      giftPower: (r.miner_id === null ? undefined : minerPower.get(Number(r.miner_id))) ?? BigInt(r.gift_power),
      miningIncome: BigInt(r.mining_income),
      dividendNadi: BigInt(r.dividend_nadi),
      dividendUsdt: BigInt(r.dividend_usdt),
    };
  });
}

/** A page of the user's holdings, newest first. */
export async function listHoldings(db: Db, userId: number, offset: number, limit: number): Promise<{ rows: HoldingRow[]; total: number }> {
  const where = eq(userNodes.userId, userId);
  const [rows, totals] = await Promise.all([
    db.select().from(userNodes).where(where).orderBy(desc(userNodes.id)).offset(offset).limit(limit),
    db.select({ n: count() }).from(userNodes).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

/** A page of what the user's nodes earned per epoch (one holding, or all), newest first. */
export async function listEarnings(db: Db, userId: number, holdingId: number | null, offset: number, limit: number) {
  const where = and(eq(nodeEarnings.userId, userId), holdingId === null ? undefined : eq(nodeEarnings.holdingId, holdingId));
  const [rows, totals] = await Promise.all([
    db.select().from(nodeEarnings).where(where).orderBy(desc(nodeEarnings.epoch), desc(nodeEarnings.holdingId)).offset(offset).limit(limit),
    db.select({ n: count() }).from(nodeEarnings).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

/** The figures of the last settled node epoch, with its mining epoch (the return estimate's basis). */
export async function readReturnBasis(db: Db) {
  const node = rowsOf<{ epoch: number; dividend_nadi: string; dividend_usdt: string; weight_total: string }>(
    await db.execute(sql`
      select epoch, dividend_nadi::text as dividend_nadi, dividend_usdt::text as dividend_usdt, weight_total::text as weight_total
        from node_epochs order by epoch desc limit 1`),
  )[0];
  if (!node) return null;
  const mining = await miningEpochFigures(db, Number(node.epoch));
  const r = { ...node, payable: mining?.payable ?? null, network_power: mining?.network_power ?? null };
  return {
    epoch: Number(r.epoch),
    dividendNadi: BigInt(r.dividend_nadi),
    dividendUsdt: BigInt(r.dividend_usdt),
    weightTotal: BigInt(r.weight_total),
    payable: BigInt(r.payable ?? '0'),
    networkPower: BigInt(r.network_power ?? '0'),
  };
}

/** Whether the user holds a node (node savings are for node holders only). */
export async function holdsNode(db: Db | Tx, userId: number): Promise<boolean> {
  const rows = rowsOf<{ held: boolean }>(await db.execute(sql`select exists (select 1 from user_nodes where user_id = ${userId}) as held`));
  return rows[0]?.held === true;
}
