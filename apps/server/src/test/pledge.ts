// Test helpers for savings: savers with NADI in their fund account, products and node holdings
// written straight to their tables (the tests choose windows and caps), interest accrued the way a
// settled epoch leaves it, and every table a savings request may touch dumped whole.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import { runFlow, systemAccount } from '../modules/ledger/index.ts';
import { rootInviteCode, type TestApp } from './harness.ts';
import { dumpMoneyTables, fundUser, tokens } from './money.ts';
import { newAccount, signIn } from './sign-in.ts';

export interface Saver {
  id: number;
  token: string;
}

export async function newSaver(t: TestApp, nadi = 10_000): Promise<Saver> {
  const token = await signIn(t.app, newAccount(), rootInviteCode);
  const info = await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: token } });
  const id = info.json().data.id as number;
  if (nadi > 0) await fundUser(t.database.db, id, 'NADI', tokens(nadi));
  return { id, token };
}

export function pledgeGet(t: TestApp, who: Saver | null, url: string) {
  return t.app.inject({ method: 'GET', url, headers: { lang: 'EN', ...(who ? { authorization: who.token } : {}) } });
}

export function pledgePost(t: TestApp, who: Saver, url: string, payload: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url, payload: payload as object, headers: { authorization: who.token, lang: 'EN', ...headers } });
}

export function join(t: TestApp, who: Saver, productId: number, amount: unknown, key: string = randomUUID()) {
  return pledgePost(t, who, '/api/v1/financial/join', { product_id: productId, amount }, { 'idempotency-key': key });
}

export interface ProductInput {
  kind?: 'flexible' | 'locked' | 'joint' | 'node';
  termEpochs?: number;
  min?: number;
  ppm?: number;
  budget?: number | null;
  cap?: number;
  total?: number;
  startsAt: Date;
  endsAt: Date;
  isEnabled?: boolean;
}

/** A product of the test's own (the seeded ones are shared by every test of the file). */
export async function insertProduct(db: Db, p: ProductInput): Promise<number> {
  const kind = p.kind ?? 'flexible';
  const budget = p.budget ?? (kind === 'joint' ? 10_000 : null);
  const rows = rowsOf<{ id: number }>(
    await db.execute(sql`
      insert into pledge_products (kind, name, term_epochs, min_pledge, day_rate_ppm, epoch_budget, pool_cap, total, starts_at, ends_at, is_enabled, sort)
      values (${kind}, ${`Test ${kind}`}, ${p.termEpochs ?? (kind === 'locked' ? 30 : 0)}, ${tokens(p.min ?? 100).toString()}::numeric, ${p.ppm ?? 300},
              ${budget === null ? null : tokens(budget).toString()}::numeric, ${tokens(p.cap ?? 1_000_000).toString()}::numeric,
              ${tokens(p.total ?? 0).toString()}::numeric, ${p.startsAt}, ${p.endsAt}, ${p.isEnabled ?? true}, 1000)
      returning id`),
  );
  return Number(rows[0]?.id);
}

/** The seeded product of a kind (and term, for locked). */
export async function seededProduct(db: Db, kind: string, termEpochs = 0): Promise<number> {
  const rows = rowsOf<{ id: number }>(
    await db.execute(sql`select id from pledge_products where kind = ${kind} and term_epochs = ${termEpochs} and name not like 'Test %' order by id limit 1`),
  );
  if (!rows[0]) throw new Error(`no seeded ${kind} product`);
  return Number(rows[0].id);
}

/** Makes the user a node holder: a tier of the test's own and one holding of it. */
export async function giveNode(db: Db, userId: number): Promise<void> {
  await db.execute(sql`
    insert into node_tiers (level_id, name, price_usdt, total_quota, per_user_limit, gift_power, machine_rate_bps, withdraw_rate)
    values (901, 'Test tier', ${tokens(100).toString()}::numeric, 100, 5, 5000, 200, 1) on conflict (level_id) do nothing`);
  await db.execute(sql`
    insert into user_nodes (user_id, tier_id, pay_method, pay_asset, pay_amount)
    select ${userId}, id, 'balance', 'NADI', ${tokens(200).toString()}::numeric from node_tiers where level_id = 901`);
}

/**
 * What a settled epoch leaves for a position: the savings pool pays the interest into
 * `savings_interest` (one flow), and the user's claimable interest, the line and the position's
 * interest total grow by it.
 */
export async function accrueInterest(db: Db, line: { userId: number; positionId: number; epoch: number; amount: bigint }): Promise<void> {
  await runFlow(db, {
    idempotencyKey: `test-accrue:${randomUUID()}`,
    userId: null,
    type: 'savings_income',
    params: line,
    legs: [{ type: 'savings_income', debit: systemAccount('savings_pool', 'NADI'), credit: systemAccount('savings_interest', 'NADI'), amount: line.amount }],
    result: () => null,
  });
  const amount = line.amount.toString();
  await db.execute(sql`
    insert into pledge_interest (user_id, claimable) values (${line.userId}, ${amount}::numeric)
    on conflict (user_id) do update set claimable = pledge_interest.claimable + excluded.claimable`);
  await db.execute(sql`
    insert into pledge_interest_lines (epoch, position_id, user_id, amount) values (${line.epoch}, ${line.positionId}, ${line.userId}, ${amount}::numeric)`);
  await db.execute(sql`update pledge_positions set interest_total = interest_total + ${amount}::numeric where id = ${line.positionId}`);
}

/** The money tables and every table a savings request writes, in a fixed order: "unchanged" means this text is identical. */
export async function savingsSnapshot(db: Db): Promise<string> {
  const parts = [await dumpMoneyTables(db)];
  for (const table of ['miners', 'power_log', 'user_power', 'pledge_products', 'pledge_positions', 'pledge_interest', 'pledge_interest_lines']) {
    const rows = rowsOf<Record<string, unknown>>(await db.execute(sql.raw(`select * from ${table} order by 1, 2`)));
    parts.push(`${table}:${JSON.stringify(rows)}`);
  }
  return parts.join('\n');
}

export async function systemBalance(db: Db, kind: string): Promise<bigint> {
  const row = rowsOf<{ available: string }>(
    await db.execute(sql`select available::text from ledger_accounts where user_id is null and kind = ${kind} and asset = 'NADI'`),
  )[0];
  return BigInt(row?.available ?? '0');
}

export async function productTotal(db: Db, id: number): Promise<bigint> {
  const row = rowsOf<{ total: string }>(await db.execute(sql`select total::text from pledge_products where id = ${id}`))[0];
  return BigInt(row?.total ?? '-1');
}
