// Node tiers in SQL (docs/nodes-and-savings.md, "Buying a node"). `sold` only moves through
// conditional updates: a sale takes a unit only while one is left (the row lock orders concurrent
// buyers, the condition refuses the one that would oversell), and the CHECK `sold <= total_quota`
// stands behind it.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { nodeOrders, nodeTiers, userNodes } from './schema.ts';
import { lockUserRow } from '../user/index.ts';

export type TierRow = typeof nodeTiers.$inferSelect;

export async function listTiers(db: Db | Tx): Promise<TierRow[]> {
  return db.select().from(nodeTiers).orderBy(asc(nodeTiers.levelId), asc(nodeTiers.id));
}

export async function findTier(db: Db | Tx, id: number): Promise<TierRow | null> {
  const rows = await db.select().from(nodeTiers).where(eq(nodeTiers.id, id)).limit(1);
  return rows[0] ?? null;
}

/**
 * Takes one unit of a tier's quota in one conditional update: only while it is on sale (unless
 * `isOnSaleIgnored`: a late wallet payment for a unit it once held) and a unit is left. Answers the
 * locked row, or null when a condition failed (the caller reads the tier to say which).
 */
export async function takeUnit(tx: Tx, tierId: number, now: Date, isOnSaleIgnored = false): Promise<TierRow | null> {
  const rows = await tx
    .update(nodeTiers)
    .set({ sold: sql`${nodeTiers.sold} + 1`, updatedAt: now })
    .where(and(eq(nodeTiers.id, tierId), isOnSaleIgnored ? undefined : eq(nodeTiers.isOnSale, true), sql`${nodeTiers.sold} < ${nodeTiers.totalQuota}`))
    .returning();
  return rows[0] ?? null;
}

/** Gives units back (expired wallet orders), `count` of each tier, tier by tier in id order. */
export async function releaseUnits(tx: Tx, counts: Map<number, number>, now: Date): Promise<void> {
  for (const [tierId, count] of [...counts].sort((a, b) => a[0] - b[0])) {
    await tx
      .update(nodeTiers)
      .set({ sold: sql`${nodeTiers.sold} - ${count}`, updatedAt: now })
      .where(eq(nodeTiers.id, tierId));
  }
}

/** Per tier, how many users hold at least one of its nodes. */
export async function holdersByTier(db: Db | Tx): Promise<Map<number, number>> {
  const rows = await db
    .select({ tierId: userNodes.tierId, n: sql<number>`count(distinct ${userNodes.userId})::int` })
    .from(userNodes)
    .groupBy(userNodes.tierId);
  return new Map(rows.map((r) => [r.tierId, Number(r.n)]));
}

/**
 * The weight the node fee dividend is split over now: Σ withdraw_rate over every node held (each
 * tier's current weight, as the settlement reads it). Units held for unpaid wallet orders count in
 * `node_tiers.sold` but earn nothing until paid, so they are not in it.
 */
export async function heldWeight(db: Db | Tx): Promise<bigint> {
  const rows = await db
    .select({ weight: sql<string>`coalesce(sum(${nodeTiers.withdrawRate}), 0)::text` })
    .from(userNodes)
    .innerJoin(nodeTiers, eq(nodeTiers.id, userNodes.tierId));
  return BigInt(rows[0]?.weight ?? '0');
}

export interface TierValues {
  name: string;
  priceUsdt: bigint;
  totalQuota: number;
  perUserLimit: number;
  giftPower: bigint;
  machineRateBps: number;
  withdrawRate: number;
  isOnSale: boolean;
}

/**
 * An operator's change of a tier, refused (null) when the new quota is below what is sold now: the
 * tier's row lock makes the comparison and the write one step, so a sale cannot slip between them.
 */
export async function updateTier(db: Db | Tx, id: number, values: TierValues, now: Date): Promise<TierRow | null> {
  const rows = await db
    .update(nodeTiers)
    .set({ ...values, updatedAt: now })
    .where(and(eq(nodeTiers.id, id), sql`${nodeTiers.sold} <= ${values.totalQuota}`))
    .returning();
  return rows[0] ?? null;
}

/**
 * Serialises one user's purchases (every pay method) in their transactions: a row lock on the user.
 * FOR NO KEY UPDATE, not FOR UPDATE, so inserts elsewhere referencing the user (their foreign-key
 * checks take KEY SHARE) are not held up.
 */
export async function lockBuyer(tx: Tx, userId: number): Promise<void> {
  await lockUserRow(tx, userId);
}

/** Per tier, the user's held nodes plus the unpaid wallet orders holding a unit for them. */
export async function takenByUser(db: Db | Tx, userId: number, tierIds: number[] | null = null): Promise<Map<number, { held: number; unpaid: number }>> {
  const holdingTiers = tierIds ? inArray(userNodes.tierId, tierIds) : undefined;
  const orderTiers = tierIds ? inArray(nodeOrders.tierId, tierIds) : undefined;
  const [held, unpaid] = await Promise.all([
    db
      .select({ tierId: userNodes.tierId, n: sql<number>`count(*)::int` })
      .from(userNodes)
      .where(and(eq(userNodes.userId, userId), holdingTiers))
      .groupBy(userNodes.tierId),
    db
      .select({ tierId: nodeOrders.tierId, n: sql<number>`count(*)::int` })
      .from(nodeOrders)
      .where(and(eq(nodeOrders.userId, userId), eq(nodeOrders.status, 'unpaid'), orderTiers))
      .groupBy(nodeOrders.tierId),
  ]);
  const counts = new Map<number, { held: number; unpaid: number }>();
  for (const r of held) counts.set(r.tierId, { held: Number(r.n), unpaid: 0 });
  for (const r of unpaid) counts.set(r.tierId, { held: counts.get(r.tierId)?.held ?? 0, unpaid: Number(r.n) });
  return counts;
}

/** The user's unpaid wallet orders for nodes, all tiers. */
export async function unpaidCount(db: Db | Tx, userId: number): Promise<number> {
  const rows = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from node_orders where user_id = ${userId} and status = 'unpaid'`));
  return Number(rows[0]?.n ?? 0);
}

/** The highest tier level among the user's nodes (the "high-level agent" badge), null without one. */
export async function highestNodeLevel(db: Db, userId: number): Promise<number | null> {
  const rows = await db
    .select({ level: sql<number | null>`max(${nodeTiers.levelId})` })
    .from(userNodes)
    .innerJoin(nodeTiers, eq(nodeTiers.id, userNodes.tierId))
    .where(eq(userNodes.userId, userId));
  const level = rows[0]?.level;
  return level == null ? null : Number(level);
}
