// The device direct reward's lines (docs/team.md "Rewards"): a store order paid writes the referrer's
// line with its inputs and adds it to their totals; a refund writes the negative line of what was
// taken back; a short referral pool shows as wanted above amount; a retried payment writes nothing.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.ts';
import { get, operatorToken, post } from '../../test/devices.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { fundUser, tokens } from '../../test/money.ts';
import { newShopper, placeOrder, productOf, shopPost, signInAgain, systemBalance, type SeededProduct, type Shopper } from '../../test/store.ts';
import { auditLedger, runFlow, systemAccount, transfer } from '../ledger/index.ts';

let t: TestApp;
let box: SeededProduct;
const db = () => t.database.db;

beforeAll(async () => {
  t = await createTestApp();
  box = await productOf(db(), 'NADI-BOX-1');
});
afterAll(async () => {
  await t?.close();
});

interface Line {
  epoch: number;
  user_id: number;
  kind: string;
  source_user_id: number;
  source_depth: number;
  source_amount: string;
  rate_bps: number;
  wanted: string;
  amount: string;
  ref: string;
  flow_id: number;
}

async function linesOf(userId: number): Promise<Line[]> {
  const rows = rowsOf<Line>(
    await db().execute(sql`
      select epoch, user_id, kind, source_user_id, source_depth, source_amount::text, rate_bps, wanted::text, amount::text, ref, flow_id::int as flow_id
        from team_rewards where user_id = ${userId} order by id`),
  );
  return rows.map((r) => ({ ...r, epoch: Number(r.epoch), user_id: Number(r.user_id), source_user_id: Number(r.source_user_id), flow_id: Number(r.flow_id) }));
}

async function totalsOf(userId: number) {
  const rows = rowsOf<{ kind: string; total: string; last_epoch: number; last_epoch_amount: string }>(
    await db().execute(sql`select kind, total::text, last_epoch, last_epoch_amount::text from team_reward_totals where user_id = ${userId}`),
  );
  return rows.map((r) => ({ ...r, last_epoch: Number(r.last_epoch) }));
}

async function orderRow(id: number): Promise<{ flowId: number; refundFlowId: number | null }> {
  const row = rowsOf<{ flow_id: number; refund_flow_id: number | null }>(
    await db().execute(sql`select flow_id::int as flow_id, refund_flow_id::int as refund_flow_id from store_orders where id = ${id}`),
  )[0];
  return { flowId: Number(row?.flow_id), refundFlowId: row?.refund_flow_id == null ? null : Number(row.refund_flow_id) };
}

/** Moves NADI between the referral pool and the treasury (a test's starting point, not an app flow). */
async function movePool(amount: bigint, direction: 'out' | 'in'): Promise<void> {
  const pool = systemAccount('referral_pool', 'NADI');
  const treasury = systemAccount('treasury', 'NADI');
  await runFlow(db(), {
    idempotencyKey: `test-pool:${randomUUID()}`,
    userId: null,
    type: 'data_adjustment',
    params: { amount, direction },
    legs: [direction === 'out' ? transfer('data_adjustment', pool, treasury, amount) : transfer('data_adjustment', treasury, pool, amount)],
    result: () => null,
  });
}

const line = (l: Partial<Line>) => expect.objectContaining({ kind: 'device_direct_reward', source_depth: 1, rate_bps: 1_000, ...l });

describe('device direct reward lines', () => {
  it("a paid order writes the referrer's line and totals; its refund the negative line of what was taken back", async () => {
    const operator = await operatorToken(t.app);
    const epoch = (await get(t.app, operator, '/api/v1/operator/economy/params')).json().data.epoch as number;
    const referrer: Shopper = await newShopper(t);
    const buyer = await newShopper(t, referrer.inviteCode);
    await fundUser(db(), buyer.id, 'USDT', tokens(2_000));

    const key = randomUUID();
    const first = (await placeOrder(t, buyer, { items: [{ product_id: box.id, quantity: 2 }] }, key)).json().data.order;
    // A retried payment (same key) answers the same order and writes no second line.
    expect((await placeOrder(t, buyer, { items: [{ product_id: box.id, quantity: 2 }] }, key)).json().data.order.id).toBe(first.id);
    // 10 % of 1,000 USDT = 100 USDT = 200 NADI at 0.5.
    const paid = line({
      epoch,
      user_id: referrer.id,
      source_user_id: buyer.id,
      source_amount: tokens(1_000).toString(),
      wanted: tokens(200).toString(),
      amount: tokens(200).toString(),
      ref: `store_order:${first.id}`,
      flow_id: (await orderRow(first.id)).flowId,
    });
    expect(await linesOf(referrer.id)).toEqual([paid]);
    expect(await totalsOf(referrer.id)).toEqual([
      { kind: 'device_direct_reward', total: tokens(200).toString(), last_epoch: epoch, last_epoch_amount: tokens(200).toString() },
    ]);
    expect(await linesOf(buyer.id)).toEqual([]);

    // The referrer moves 150 of the 200 out of reach; the refund takes back 50.
    expect((await shopPost(t, referrer, '/api/v1/wallet/transfer', { asset: 'NADI', from: 'fund', to: 'trade', amount: '150' })).statusCode).toBe(200);
    expect((await post(t.app, operator, '/api/v1/operator/store/refund', { id: first.id, reason: 'returned' })).json().data.reward_unrecovered).toBe('150');
    const clawback = line({
      epoch,
      user_id: referrer.id,
      source_user_id: buyer.id,
      source_amount: tokens(1_000).toString(),
      wanted: (-tokens(200)).toString(),
      amount: (-tokens(50)).toString(),
      ref: `store_order:${first.id}:refund`,
      flow_id: (await orderRow(first.id)).refundFlowId ?? 0,
    });
    expect(await linesOf(referrer.id)).toEqual([paid, clawback]);
    expect(await totalsOf(referrer.id)).toEqual([
      { kind: 'device_direct_reward', total: tokens(150).toString(), last_epoch: epoch, last_epoch_amount: tokens(150).toString() },
    ]);

    // The next epoch starts the epoch's amount afresh; a short pool pays less than the formula wants.
    t.clock.advance(t.settings.epochSeconds * 1000);
    await signInAgain(t, buyer);
    const second = (await placeOrder(t, buyer, { items: [{ product_id: box.id, quantity: 1 }] })).json().data.order;
    const pool = await systemBalance(db(), 'referral_pool', 'NADI');
    await movePool(pool - tokens(30), 'out');
    const third = (await placeOrder(t, buyer, { items: [{ product_id: box.id, quantity: 1 }] })).json().data.order;
    await movePool(pool - tokens(30), 'in');
    expect((await linesOf(referrer.id)).slice(2)).toEqual([
      line({
        epoch: epoch + 1,
        source_amount: tokens(500).toString(),
        wanted: tokens(100).toString(),
        amount: tokens(100).toString(),
        ref: `store_order:${second.id}`,
      }),
      line({
        epoch: epoch + 1,
        source_amount: tokens(500).toString(),
        wanted: tokens(100).toString(),
        amount: tokens(30).toString(),
        ref: `store_order:${third.id}`,
      }),
    ]);
    expect(await totalsOf(referrer.id)).toEqual([
      { kind: 'device_direct_reward', total: tokens(280).toString(), last_epoch: epoch + 1, last_epoch_amount: tokens(130).toString() },
    ]);
    expect(await auditLedger(db())).toMatchObject({ isOk: true, problems: [] });
  });
});
