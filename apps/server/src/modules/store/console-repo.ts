// What the operator console's user and dashboard screens read of store orders (docs/operator.md
// "Console API"); operator/service.ts calls these through store/index.ts.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

/** A user's latest orders. */
export async function userStoreOrders(db: Db, userId: number, limit: number) {
  return rowsOf<{ id: number; order_no: string; status: string; pay_asset: string; pay_amount: string; created_at: Date | string }>(
    await db.execute(
      sql`select id, order_no, status, pay_asset, pay_amount::text as pay_amount, created_at from store_orders where user_id = ${userId} order by id desc limit ${limit}`,
    ),
  );
}

/** How many paid orders wait to be shipped. */
export async function ordersToShipCount(db: Db): Promise<number> {
  return Number(rowsOf<{ n: string | number }>(await db.execute(sql`select count(*) as n from store_orders where status = 'to_ship'`))[0]?.n ?? 0);
}
