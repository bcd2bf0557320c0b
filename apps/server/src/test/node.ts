// Test helpers for nodes: the seeded tiers, purchases made the way the web makes them (an
// Idempotency-Key, each buyer from its own client address: see test/store.ts), destroy quota granted
// through the ledger, and the tables a purchase touches dumped whole ("nothing changed").
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import { runFlow, systemAccount, transfer, userAccount } from '../modules/ledger/index.ts';
import type { TestApp } from './harness.ts';
import { shopPost, type Shopper } from './store.ts';

export interface SeededTier {
  id: number;
  levelId: number;
  priceUsdt: bigint;
  totalQuota: number;
  sold: number;
  perUserLimit: number;
  giftPower: bigint;
}

/** The tier of a level (T1 = 1) as it is now. */
export async function tierOf(db: Db, levelId: number): Promise<SeededTier> {
  const rows = rowsOf<{ id: number; price_usdt: string; total_quota: number; sold: number; per_user_limit: number; gift_power: string }>(
    await db.execute(sql`
      select id, price_usdt::text as price_usdt, total_quota, sold, per_user_limit, gift_power::text as gift_power
        from node_tiers where level_id = ${levelId}`),
  );
  const r = rows[0];
  if (!r) throw new Error(`no tier of level ${levelId}`);
  return {
    id: Number(r.id),
    levelId,
    priceUsdt: BigInt(r.price_usdt),
    totalQuota: Number(r.total_quota),
    sold: Number(r.sold),
    perUserLimit: Number(r.per_user_limit),
    giftPower: BigInt(r.gift_power),
  };
}

/** Sets what a tier has sold directly (a test's starting point, not how sales move it). */
export async function setSold(db: Db, tierId: number, sold: number): Promise<void> {
  await db.execute(sql`update node_tiers set sold = ${sold} where id = ${tierId}`);
}

export interface BuyRequest {
  tier_id: number;
  pay_method: 'balance' | 'credit' | 'chain';
  pay_asset?: 'USDT' | 'NADI';
  price?: string;
}

/** Buys under `key` (a fresh one by default), as the web does. */
export function buyNodeAs(t: TestApp, who: Shopper, request: BuyRequest, key: string = randomUUID()) {
  return shopPost(t, who, '/api/v1/node/buy', request, { 'idempotency-key': key });
}

/** Destroy quota (USDT) for a user, from the treasury as a destroy would credit it. */
export async function grantQuota(db: Db, userId: number, usdt: bigint): Promise<void> {
  await runFlow(db, {
    idempotencyKey: `test-quota:${randomUUID()}`,
    userId,
    type: 'destroy_mining',
    params: { userId, usdt },
    legs: [transfer('destroy_mining', systemAccount('treasury', 'USDT'), userAccount(userId, 'destroy_quota', 'USDT'), usdt)],
    result: () => null,
  });
}

/** Every row of the tables a node purchase writes, in a fixed order: "nothing changed" means this text is identical. */
export async function nodeTables(db: Db): Promise<string> {
  const tables = [
    'node_tiers',
    'user_nodes',
    'node_orders',
    'payment_orders',
    'miners',
    'power_log',
    'user_power',
    'performance_events',
    'user_performance',
    'ledger_accounts',
    'ledger_flows',
    'ledger_transfers',
  ];
  const parts: string[] = [];
  for (const table of tables) {
    const rows = rowsOf<Record<string, unknown>>(await db.execute(sql.raw(`select * from ${table} order by 1`)));
    parts.push(`${table}:${JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`);
  }
  return parts.join('\n');
}
