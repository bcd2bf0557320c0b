// The market's single writer settles commands in batches (group commit, docs/market.md). These
// tests prove a batch changes nothing a user can see: the same commands sent all at once (so the
// writer batches them) and sent one at a time leave identical books, orders, trades and balances;
// a balance the writer remembered wrongly never decides an answer; a batch whose statement fails
// still answers each of its commands as if it had run alone, and one whose answer was lost after
// its commit is answered from what it committed.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { units } from '@nadi/money/money';
import type { Asset } from '@nadi/api/wallet';
import type { Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { balanceOf } from '../../test/money.ts';
import { inRolledBackTransaction } from '../../test/rolled-back.ts';
import { newTrader, type Trader } from '../../test/trader.ts';
import { marketRoutes } from '@nadi/api/market';
import { AppError } from '../../lib/app-error.ts';
import { runFlow } from '../ledger/index.ts';
import { auditLedger } from '../ledger/index.ts';

const apps: TestApp[] = [];
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
});
afterAll(async () => {
  for (const t of apps.splice(0)) await t.close();
});

async function newApp(): Promise<TestApp> {
  const t = await createTestApp();
  apps.push(t);
  return t;
}

type Body = Record<string, unknown>;
/** An order to place, or a cancel of the order an earlier step placed (by that step's index). */
type Step = { user: number; order: Body } | { user: number; cancelStep: number };

const order = (t: TestApp, u: Trader, body: Body) =>
  t.app.inject({ method: 'POST', url: '/api/v1/trade/order', payload: { symbol: 'NADI-USDT', ...body }, headers: { authorization: u.token, lang: 'EN' } });

const funds: Partial<Record<Asset, string>>[] = [
  { NADI: '100' },
  { NADI: '100' },
  { USDT: '200' },
  { USDT: '100' },
  { USDT: '100' },
  { USDT: '100' },
  { NADI: '100', USDT: '10' },
];

/** Orders that cross each other, refusals and a repeated client id; then cancels mixed with new orders. */
const rounds: Step[][] = [
  [
    { user: 0, order: { side: 'sell', type: 'limit', price: '1', quantity: '50' } },
    { user: 1, order: { side: 'sell', type: 'limit', price: '1.01', quantity: '30' } },
    { user: 2, order: { side: 'buy', type: 'limit', price: '1.02', quantity: '60' } },
    { user: 3, order: { side: 'buy', type: 'market', quote_amount: '20' } },
    { user: 4, order: { side: 'buy', type: 'limit', price: '0.99', quantity: '10', client_order_id: 'x-1' } },
    { user: 4, order: { side: 'buy', type: 'limit', price: '0.99', quantity: '10', client_order_id: 'x-1' } },
    { user: 4, order: { side: 'buy', type: 'limit', price: '0.99', quantity: '11', client_order_id: 'x-1' } },
    { user: 5, order: { side: 'buy', type: 'limit', price: '1', quantity: '1000' } },
    { user: 5, order: { side: 'buy', type: 'limit', price: '1', quantity: '50' } },
    { user: 5, order: { side: 'buy', type: 'limit', price: '1', quantity: '50' } },
    { user: 6, order: { side: 'sell', type: 'limit', price: '0.98', quantity: '40' } },
    { user: 0, order: { side: 'sell', type: 'market', quantity: '5' } },
    { user: 1, order: { side: 'sell', type: 'limit', price: '1.05', quantity: '10' } },
  ],
  [
    { user: 4, cancelStep: 4 },
    { user: 2, order: { side: 'buy', type: 'limit', price: '1.05', quantity: '20' } },
    { user: 1, cancelStep: 12 },
    { user: 6, order: { side: 'sell', type: 'limit', price: '0.97', quantity: '30' } },
    { user: 5, cancelStep: 8 },
    { user: 0, cancelStep: 0 },
  ],
];

/**
 * Sends the rounds straight to the market's writer, in step order: in each round either all steps
 * at once (they queue in that order and the writer batches them) or each after the last answer.
 * Returns what each step was answered: the order's id, or the refusal.
 */
async function play(t: TestApp, traders: Trader[], isTogether: boolean): Promise<string[]> {
  const answers: string[] = [];
  const placed: (number | undefined)[] = [];
  for (const round of rounds) {
    const send = (step: Step) => {
      const u = traders[step.user] as Trader;
      const answer =
        'order' in step
          ? t.app.market.place(u.id, marketRoutes.place.input.parse({ symbol: 'NADI-USDT', ...step.order }))
          : t.app.market.cancel(u.id, placed[step.cancelStep] ?? 0);
      return answer.then(
        (o) => ({ id: o.id, text: `ok ${o.id}` }),
        (e: unknown) => ({ id: undefined, text: e instanceof AppError ? e.reason : String(e) }),
      );
    };
    const results = isTogether
      ? await Promise.all(round.map(send))
      : await round.reduce(async (all, step) => [...(await all), await send(step)], Promise.resolve([] as { id: number | undefined; text: string }[]));
    for (const r of results) {
      placed.push(r.id);
      answers.push(r.text);
    }
  }
  return answers;
}

/** Everything the market and the ledger hold, with users by their index (ids are the same on both). */
async function state(t: TestApp, traders: Trader[]) {
  const db = t.database.db;
  const index = new Map(traders.map((u, i) => [u.id, i]));
  const orders = rowsOf<Record<string, string | null>>(
    await db.execute(sql`select id::text, user_id::text, client_order_id, side, type, price::text, quantity::text, quote_amount::text, filled::text,
                                quote_filled::text, fee::text, frozen::text, frozen_remaining::text, status, cancel_reason from market_orders order by id`),
  ).map((o) => ({ ...o, user_id: index.get(Number(o.user_id)) }));
  const trades = rowsOf<Record<string, string>>(
    await db.execute(
      sql`select seq::text, maker_order_id::text, taker_order_id::text, price::text, quantity::text, quote::text, maker_fee::text, taker_fee::text from market_trades order by seq`,
    ),
  );
  const balances = [];
  for (const u of traders) balances.push([await balanceOf(db, u.id, 'trade', 'NADI'), await balanceOf(db, u.id, 'trade', 'USDT')]);
  const fees = rowsOf<{ v: string }>(
    await db.execute(sql`select available::text as v from ledger_accounts where user_id is null and kind = 'fees' and asset = 'USDT'`),
  )[0]?.v;
  return JSON.stringify({ orders, trades, fees, depth: t.app.market.writer?.depth(100), balances }, (_k, v: unknown) =>
    typeof v === 'bigint' ? v.toString() : v,
  );
}

async function traders(t: TestApp): Promise<Trader[]> {
  const list: Trader[] = [];
  for (const f of funds) list.push(await newTrader(t.app, t.database.db, f));
  return list;
}

describe('market writer: batches', () => {
  it('settles commands sent all at once exactly as the same commands sent one at a time', async () => {
    const together = await newApp();
    const alone = await newApp();
    const [a, b] = [await traders(together), await traders(alone)];
    const seenTogether = await play(together, a, true);
    const seenAlone = await play(alone, b, false);
    expect(seenTogether).toEqual(seenAlone);
    // The refusals the script provokes, and the repeated client id answered with the first order.
    expect(seenAlone.filter((s) => !s.startsWith('ok'))).toEqual(['IDEMPOTENCY_CONFLICT', 'INSUFFICIENT_BALANCE', 'INSUFFICIENT_BALANCE']);
    expect(seenAlone[5]).toBe(seenAlone[4]);
    expect(await state(together, a)).toBe(await state(alone, b));
    // The first really ran in batches of several commands, the second in batches of one.
    const [ct, ca] = [together.app.market.counters(), alone.app.market.counters()];
    expect(ct.commands / ct.batches).toBeGreaterThan(2);
    // And no batch needed the fallback (a failed statement, then each command alone).
    expect(ct.failedBatches).toBe(0);
    expect(ca.commands).toBe(ca.batches);
    for (const t of [together, alone]) expect((await auditLedger(t.database.db)).problems).toEqual([]);
  });

  it('answers a batch whose statement committed but whose answer was lost from what it committed, never running it twice', async () => {
    const lost = await newApp();
    const answered = await newApp();
    const [a, b] = [await traders(lost), await traders(answered)];
    // The first two batch statements of the first app commit, then their answers are lost, as when
    // the connection drops after the commit.
    const losses = loseAnswersAfterCommit(lost, 2);
    const [pushedLost, pushedAnswered] = [pushes(lost), pushes(answered)];
    const seenLost = await play(lost, a, true);
    const seenAnswered = await play(answered, b, true);
    expect(losses.lost).toBe(2);
    expect(seenLost).toEqual(seenAnswered);
    expect(await state(lost, a)).toBe(await state(answered, b));
    // The live streams got the same trades and order updates.
    expect(pushedLost).toEqual(pushedAnswered);
    expect(pushedLost.filter((p) => p.startsWith('trade')).length).toBeGreaterThan(0);
    expect(lost.app.market.counters().failedBatches).toBe(2);
    for (const t of [lost, answered]) expect((await auditLedger(t.database.db)).problems).toEqual([]);
  });

  it('never refuses an order on a balance it only remembers: money credited outside the market is read first', async () => {
    const t = await newApp();
    const [u] = [await newTrader(t.app, t.database.db, { USDT: '10' })];
    expect((await order(t, u as Trader, { side: 'buy', type: 'limit', price: '0.5', quantity: '10' })).statusCode).toBe(200);
    // The writer now remembers 4.99 USDT available. A flow that announces nothing credits 100 more.
    await credit(t, (u as Trader).id, 'USDT', '100');
    const big = await order(t, u as Trader, { side: 'buy', type: 'limit', price: '0.5', quantity: '150' });
    expect(big.statusCode, JSON.stringify(big.json())).toBe(200);
    // A real shortfall is still refused, on a balance just read.
    const tooBig = await order(t, u as Trader, { side: 'buy', type: 'limit', price: '0.5', quantity: '1000' });
    expect(tooBig.json().reason).toBe('INSUFFICIENT_BALANCE');
    expect((await auditLedger(t.database.db)).problems).toEqual([]);
  });

  it('fails a batch whose remembered balance was spent outside the market, and still settles its other commands', async () => {
    const t = await newApp();
    const spender = await newTrader(t.app, t.database.db, { USDT: '100' });
    const other = await newTrader(t.app, t.database.db, { USDT: '100' });
    // Both balances are remembered after a first order each.
    for (const u of [spender, other]) expect((await order(t, u, { side: 'buy', type: 'limit', price: '0.1', quantity: '10' })).statusCode).toBe(200);
    // 90 USDT leave the spender's trade account by a flow that announces nothing.
    await credit(t, spender.id, 'USDT', '-90');
    const before = t.app.market.counters();
    const [spent, fine] = await Promise.all([
      order(t, spender, { side: 'buy', type: 'limit', price: '0.5', quantity: '100' }),
      order(t, other, { side: 'buy', type: 'limit', price: '0.5', quantity: '100' }),
    ]);
    expect(spent.json().reason).toBe('INSUFFICIENT_BALANCE');
    expect(fine.statusCode, JSON.stringify(fine.json())).toBe(200);
    expect(t.app.market.counters().failedBatches).toBe(before.failedBatches + 1);
    expect(await balanceOf(t.database.db, spender.id, 'trade', 'USDT')).toEqual({ available: units('8.998'), frozen: units('1.002') });
    expect((await auditLedger(t.database.db)).problems).toEqual([]);
  });

  it('updates the orders a batch changed by their key, never by reading the whole order table', async () => {
    const t = await newApp();
    const db = t.database.db;
    const u = await newTrader(t.app, db, { USDT: '100' });
    const placed = await t.app.market.place(
      u.id,
      marketRoutes.place.input.parse({ symbol: 'NADI-USDT', side: 'buy', type: 'limit', price: '0.1', quantity: '10' }),
    );
    // 400 cancelled orders around it, and statistics that know the table's size: reading every row
    // is now plainly dearer than one index lookup, so a plan that does it is the statement's fault.
    await db.execute(sql`insert into market_orders
      select (jsonb_populate_record(o, jsonb_build_object('id', o.id + g, 'client_order_id', null, 'status', 'cancelled', 'frozen_remaining', 0))).*
        from market_orders o, generate_series(1000, 1399) g where o.id = ${placed.id}`);
    await db.execute(sql`analyze market_orders`);
    const changed = rowsOf<{ j: string }>(
      await db.execute(sql`select jsonb_build_array(to_jsonb(o) || '{"last_seq": 99}')::text as j from market_orders o where id = ${placed.id}`),
    )[0]?.j;
    const scans = async (tx: Tx) =>
      rowsOf<{ seq: string; idx: string }>(
        await tx.execute(
          sql`select coalesce(seq_scan, 0)::text as seq, coalesce(idx_scan, 0)::text as idx from pg_stat_xact_user_tables where relname = 'market_orders'`,
        ),
      )[0] ?? { seq: '0', idx: '0' };
    const seen = await inRolledBackTransaction(db, async (tx) => {
      const before = await scans(tx);
      await tx.execute(sql`select market_settle('NADI-USDT', null, '[]'::jsonb, '[]'::jsonb, ${changed}::jsonb)`);
      const after = await scans(tx);
      const lastSeq = rowsOf<{ s: string }>(await tx.execute(sql`select last_seq::text as s from market_orders where id = ${placed.id}`))[0]?.s;
      return { seq: Number(after.seq) - Number(before.seq), idx: Number(after.idx) - Number(before.idx), lastSeq };
    });
    expect(seen).toEqual({ seq: 0, idx: 1, lastSeq: '99' });
  });

  it('counts its batches on /metrics', async () => {
    const t = await newApp();
    const u = await newTrader(t.app, t.database.db, { USDT: '100' });
    await Promise.all([1, 2, 3].map((i) => order(t, u, { side: 'buy', type: 'limit', price: '0.1', quantity: String(10 * i) })));
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    const value = (name: string) => Number(new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text)?.[1]);
    expect(value('market_batch_commands_total')).toBe(3);
    expect(value('market_batches_total')).toBeGreaterThanOrEqual(1);
    expect(value('market_batches_total')).toBeLessThanOrEqual(3);
    expect(value('market_batch_settle_seconds_count')).toBe(value('market_batches_total'));
    expect(value('market_batch_settle_seconds_sum')).toBeGreaterThan(0);
    expect(value('market_batch_failures_total')).toBe(0);
  });
});

/** What the app publishes to the live streams: trades and order updates, in order. */
function pushes(t: TestApp): string[] {
  const seen: string[] = [];
  t.app.deps.events.subscribe((e) => {
    if (e.type === 'trades') for (const x of e.trades) seen.push(`trade ${x.tradeId} ${x.px} ${x.sz} ${x.side}`);
    if (e.type === 'order') seen.push(`order ${e.order.id} ${e.order.status} ${e.order.filled_amount}`);
  });
  return seen;
}

/** The next `count` market_settle statements of the app commit, then answer with an error instead of their result. */
function loseAnswersAfterCommit(t: TestApp, count: number): { lost: number } {
  const db = t.app.deps.db;
  const execute = db.execute.bind(db);
  const dialect = new PgDialect();
  const losses = { lost: 0 };
  db.execute = (async (query: Parameters<typeof execute>[0]) => {
    const result = await execute(query);
    const text = typeof query === 'string' ? query : dialect.sqlToQuery(query.getSQL()).sql;
    if (losses.lost < count && text.includes('market_settle(')) {
      losses.lost += 1;
      throw new Error('Connection terminated unexpectedly');
    }
    return result;
  }) as typeof db.execute;
  return losses;
}

/** Moves money into (or, negative, out of) a trade account by a ledger flow that publishes no event. */
async function credit(t: TestApp, userId: number, asset: Asset, amount: string) {
  const isOut = amount.startsWith('-');
  const treasury = { userId: null, kind: 'treasury' as const, asset };
  const account = { userId, kind: 'trade' as const, asset };
  await runFlow(t.database.db, {
    idempotencyKey: `test-outside:${randomUUID()}`,
    userId,
    type: 'data_adjustment',
    params: { userId, asset, amount },
    legs: [{ type: 'data_adjustment', debit: isOut ? account : treasury, credit: isOut ? treasury : account, amount: units(amount.replace('-', '')) }],
    result: () => null,
  });
}
