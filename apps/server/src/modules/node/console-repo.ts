// What the operator console reads of nodes (docs/operator.md "Console API"); operator/service.ts
// calls these through node/index.ts.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { sqlList } from '../../db/sql-list.ts';

/** A user's latest held nodes. */
export async function userNodeHoldings(db: Db, userId: number, limit: number) {
  return rowsOf<{ id: number; tier_id: number; pay_method: string; pay_asset: string; pay_amount: string; created_at: Date | string }>(
    await db.execute(
      sql`select id, tier_id, pay_method, pay_asset, pay_amount::text as pay_amount, created_at from user_nodes where user_id = ${userId} order by id desc limit ${limit}`,
    ),
  );
}

/** Nodes held per tier. */
export async function nodeSalesByTier(db: Db) {
  return rowsOf<{ tier_id: number; name: string; sold: string | number }>(
    await db.execute(
      sql`select t.id as tier_id, t.name, count(n.id) as sold from node_tiers t left join user_nodes n on n.tier_id = t.id group by t.id, t.name order by t.id`,
    ),
  );
}

/** What the node settlement paid in each of some epochs (absent: not settled). */
export async function nodeEpochsPaid(db: Db, epochs: number[]) {
  if (epochs.length === 0) return [];
  return rowsOf<{ epoch: number; node_paid: string; node_paid_usdt: string }>(
    await db.execute(
      sql`select epoch, (dividend_nadi + bonus_paid)::text as node_paid, dividend_usdt::text as node_paid_usdt from node_epochs
          where epoch in (${sqlList(epochs)})`,
    ),
  );
}
