import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress, parseUnits, type Address, type Hex } from 'viem';
import { nadiTokenAbi, paymentGatewayAbi } from '@nadi/chain/artifacts';
import { mineBlocks } from '@nadi/chain/local-chain';
import { units } from '@nadi/money/money';
import { rowsOf } from '../../../db/rows.ts';
import type { AppEvent } from '../../../lib/event-bus.ts';
import { apiGet, apiPost, demoWallet, newUser, startChainTestBed, type ChainTestBed, type TestUser } from '../../../test/chain.ts';
import { balanceOf, tokens } from '../../../test/money.ts';
import { auditLedger } from '../../ledger/index.ts';
import { readPerformance } from '../../team/index.ts';
import { scanPaymentsOnce } from './watcher.ts';

// Destroy mining paid on chain against a real Hardhat node: a destroy order is paid with
// PaymentGateway.payAndBurn (the NADI goes to the burn address), and the payment watcher fulfils
// it once confirmed: destroy quota, a destroy miner paid by 'chain' and its power log row.
let bed: ChainTestBed;
beforeAll(async () => {
  bed = await startChainTestBed();
});
afterAll(async () => {
  await bed?.close();
});

const burnAddress: Address = '0x000000000000000000000000000000000000dEaD';
const db = () => bed.t.database.db;
const scan = () => scanPaymentsOnce(bed.t.app.deps, bed.context(), bed.t.app.log);

interface OrderData {
  id: number;
  order_key: Hex;
  kind: string;
  status: string;
  reject_reason: string | null;
}

async function destroyOrder(user: TestUser, amount: string, price = '0.5'): Promise<OrderData> {
  const res = await apiPost(bed.t, user.token, '/api/v1/mining/destroy/order', { amount, price });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

async function readOrder(user: TestUser, id: number): Promise<OrderData> {
  return (await apiGet(bed.t, user.token, `/api/v1/payment/order?id=${id}`)).json().data;
}

/** Approves and pays from demo account #from with the gateway function the order names (payAndBurn) or another one. */
async function pay(from: number, orderKey: Hex, token: Address, amount: bigint, functionName: 'pay' | 'payAndBurn' = 'payAndBurn') {
  const wallet = demoWallet(bed.chain.rpcUrl, from);
  const approve = await wallet.writeContract({ address: token, abi: nadiTokenAbi, functionName: 'approve', args: [bed.contracts.paymentGateway, amount] });
  expect((await bed.client.waitForTransactionReceipt({ hash: approve })).status).toBe('success');
  const hash = await wallet.writeContract({ address: bed.contracts.paymentGateway, abi: paymentGatewayAbi, functionName, args: [orderKey, token, amount] });
  expect((await bed.client.waitForTransactionReceipt({ hash })).status).toBe('success');
}

function tokenBalance(token: Address, owner: Address): Promise<bigint> {
  return bed.client.readContract({ address: token, abi: nadiTokenAbi, functionName: 'balanceOf', args: [owner] });
}

async function count(table: 'payment_orders' | 'destroy_orders' | 'miners' | 'power_log' | 'ledger_flows'): Promise<number> {
  return Number(rowsOf<{ n: string }>(await db().execute(sql.raw(`select count(*)::text as n from ${table}`)))[0]?.n);
}

async function minersOf(userId: number) {
  return rowsOf<Record<string, unknown>>(
    await db().execute(sql`
      select kind, status, base_power::text, pay_method, destroy_nadi::text, destroy_price::text, destroy_usdt::text, budget_usdt::text,
             released_usdt::text, (flow_id is not null) as has_flow
        from miners where user_id = ${userId} and kind = 'destroy' order by id`),
  );
}

describe('destroy paid on chain', () => {
  it('previews a wallet destroy without the fund account (pay_method chain); the fund-account preview still needs the balance', async () => {
    const user = await newUser(bed.t);
    const chain = await apiPost(bed.t, user.token, '/api/v1/mining/destroy/preview', { amount: '100', pay_method: 'chain' });
    expect(chain.json().data).toMatchObject({ amount: '100', value_usdt: '50', power: '100.00', available: '0' });
    const balance = await apiPost(bed.t, user.token, '/api/v1/mining/destroy/preview', { amount: '100' });
    expect(balance.json()).toMatchObject({ reason: 'INSUFFICIENT_BALANCE' });
    expect((await apiPost(bed.t, user.token, '/api/v1/mining/destroy/preview', { amount: '100', pay_method: 'credit' })).statusCode).toBe(400);
  });

  it('creates a destroy order without touching the fund account, burns the payment on chain and fulfils it once: quota, miner, power log', async () => {
    const user = await newUser(bed.t);
    const res = await apiPost(bed.t, user.token, '/api/v1/mining/destroy/order', { amount: '100', price: '0.5' });
    expect(res.statusCode).toBe(200);
    const order = res.json().data;
    expect(order).toMatchObject({
      kind: 'destroy',
      asset: 'NADI',
      amount: '100',
      status: 'unpaid',
      gateway_address: bed.contracts.paymentGateway,
      gateway_method: 'payAndBurn',
      token_address: getAddress(bed.contracts.nadi),
    });
    const stored = rowsOf(await db().execute(sql`select price::text, value_usdt::text from destroy_orders where order_id = ${order.id}`));
    expect(stored).toEqual([{ price: units('0.5').toString(), value_usdt: tokens(50).toString() }]);

    const burnedBefore = await tokenBalance(bed.contracts.nadi, burnAddress);
    const supplyBefore = await bed.client.readContract({ address: bed.contracts.nadi, abi: nadiTokenAbi, functionName: 'totalSupply' });
    await pay(1, order.order_key, bed.contracts.nadi, parseUnits('100', 18));
    expect((await tokenBalance(bed.contracts.nadi, burnAddress)) - burnedBefore).toBe(tokens(100));
    expect(await tokenBalance(bed.contracts.nadi, bed.contracts.paymentGateway)).toBe(0n);
    // The token has no burn function: the supply is unchanged, the burn address holds it for good.
    expect(await bed.client.readContract({ address: bed.contracts.nadi, abi: nadiTokenAbi, functionName: 'totalSupply' })).toBe(supplyBefore);

    await scan();
    expect((await readOrder(user, order.id)).status).toBe('paid');
    expect(await minersOf(user.id)).toEqual([]);

    const events: AppEvent[] = [];
    const unsubscribe = bed.t.app.deps.events.subscribe((e) => events.push(e));
    await mineBlocks(bed.chain.rpcUrl, 3);
    expect((await scan()).fulfilled).toBe(1);
    unsubscribe();
    expect(await readOrder(user, order.id)).toMatchObject({ status: 'fulfilled', reject_reason: null });
    expect(events).toContainEqual({ type: 'balance', userIds: [user.id] });

    const miners = await minersOf(user.id);
    expect(miners).toEqual([
      {
        kind: 'destroy',
        status: 3,
        base_power: '10000',
        pay_method: 'chain',
        destroy_nadi: tokens(100).toString(),
        destroy_price: units('0.5').toString(),
        destroy_usdt: tokens(50).toString(),
        budget_usdt: tokens(150).toString(),
        released_usdt: '0',
        has_flow: true,
      },
    ]);
    expect(await balanceOf(db(), user.id, 'destroy_quota', 'USDT')).toEqual({ available: tokens(50), frozen: 0n });
    expect(await balanceOf(db(), user.id, 'fund', 'NADI')).toEqual({ available: 0n, frozen: 0n });
    const log = rowsOf<{ type: string; before: string; after: string }>(
      await db().execute(sql`select type, before::text, after::text from power_log where user_id = ${user.id} order by id`),
    );
    expect(log).toEqual([
      { type: 'trial', before: '0', after: '1000' },
      { type: 'destroy', before: '1000', after: '11000' },
    ]);
    // Only the quota moves in the ledger: the NADI never was in it.
    const journal = rowsOf(
      await db().execute(sql`
        select t.type, t.asset, t.amount::text, f.idempotency_key from ledger_transfers t join ledger_flows f on f.id = t.flow_id
         where f.id = (select flow_id from miners where user_id = ${user.id} and kind = 'destroy')`),
    );
    expect(journal).toEqual([{ type: 'destroy_mining', asset: 'USDT', amount: tokens(50).toString(), idempotency_key: `payment_order:${order.id}` }]);

    const listed = (await apiGet(bed.t, user.token, '/api/v1/mining/miners?kind=destroy')).json().data.list;
    expect(listed).toMatchObject([{ kind: 'destroy', pay_method: 'chain', base_power: '100.00', destroy: { nadi: '100', price: '0.5', usdt: '50' } }]);

    await mineBlocks(bed.chain.rpcUrl, 2);
    expect((await scan()).fulfilled).toBe(0);
    expect(await minersOf(user.id)).toHaveLength(1);
    expect(await balanceOf(db(), user.id, 'destroy_quota', 'USDT')).toEqual({ available: tokens(50), frozen: 0n });
    expect(await readPerformance(db(), user.id)).toEqual({ mePerformance: tokens(50), teamPerformance: 0n });
    expect((await auditLedger(db())).isOk).toBe(true);
  });

  it('refuses bad, too small and hostile amounts and a moved price, creating nothing', async () => {
    const user = await newUser(bed.t);
    const before = await Promise.all([count('payment_orders'), count('destroy_orders')]);
    for (const body of [
      { amount: '0', price: '0.5' },
      { amount: '-100', price: '0.5' },
      { amount: '1e3', price: '0.5' },
      { amount: '100.0000000000000000001', price: '0.5' },
      { amount: "100'; drop table miners; --", price: '0.5' },
      { amount: 100, price: '0.5' },
      { amount: '100' },
      { amount: '9'.repeat(100), price: '0.5' },
    ]) {
      const res = await apiPost(bed.t, user.token, '/api/v1/mining/destroy/order', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const small = await apiPost(bed.t, user.token, '/api/v1/mining/destroy/order', { amount: '19.999999999999999999', price: '0.5' });
    expect(small.statusCode).toBe(400);
    expect(small.json()).toMatchObject({ reason: 'DESTROY_BELOW_MIN', params: { amount: '10' } });
    const moved = await apiPost(bed.t, user.token, '/api/v1/mining/destroy/order', { amount: '100', price: '0.4' });
    expect(moved.json()).toMatchObject({ reason: 'QUOTE_EXPIRED' });
    expect((await bed.t.app.inject({ method: 'POST', url: '/api/v1/mining/destroy/order', payload: { amount: '100', price: '0.5' } })).statusCode).toBe(401);
    expect(await Promise.all([count('payment_orders'), count('destroy_orders')])).toEqual(before);
  });

  it.each([
    ['another token', 'usdt', '100', 'payAndBurn', 'token_mismatch'],
    ['less than the amount', 'nadi', '99.999999999999999999', 'payAndBurn', 'amount_below_order'],
    ['pay instead of payAndBurn (not burned)', 'nadi', '100', 'pay', 'not_burned'],
  ] as const)('a payment with %s is rejected: no miner, no quota, no power', async (_case, token, amount, method, reason) => {
    const user = await newUser(bed.t);
    const order = await destroyOrder(user, '100');
    const counts = await Promise.all([count('miners'), count('power_log'), count('ledger_flows')]);
    await pay(4, order.order_key, bed.contracts[token], parseUnits(amount, 18), method);
    await mineBlocks(bed.chain.rpcUrl, 3);
    expect((await scan()).rejected).toBe(1);
    expect(await readOrder(user, order.id)).toMatchObject({ status: 'rejected', reject_reason: reason });
    expect(await Promise.all([count('miners'), count('power_log'), count('ledger_flows')])).toEqual(counts);
    expect(await balanceOf(db(), user.id, 'destroy_quota', 'USDT')).toEqual({ available: 0n, frozen: 0n });
  });
});
