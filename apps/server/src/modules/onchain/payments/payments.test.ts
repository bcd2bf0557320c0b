import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BaseError, ContractFunctionRevertedError, getAddress, parseUnits, type Address, type Hex } from 'viem';
import { nadiTokenAbi, paymentGatewayAbi } from '@nadi/chain/artifacts';
import { hardhatAccounts } from '@nadi/chain/demo-accounts';
import { mineBlocks } from '@nadi/chain/local-chain';
import {
  apiGet,
  apiPost,
  demoWallet,
  newUser,
  revertTo,
  snapshot,
  startChainTestBed,
  withClient,
  type ChainTestBed,
  type TestUser,
} from '../../../test/chain.ts';
import { AppError } from '../../../lib/app-error.ts';
import type { ChainContext } from '../chain.ts';
import { createTestOrder } from './service.ts';
import { scanPaymentsOnce } from './watcher.ts';

// Wallet payments against a real Hardhat node: a user's test order is paid through the
// PaymentGateway from a demo account, and the watcher fulfils it once the Paid event is confirmed.
let bed: ChainTestBed;
let ctx: ChainContext;

beforeAll(async () => {
  bed = await startChainTestBed();
  ctx = bed.context();
});
afterAll(async () => {
  await bed?.close();
});

const scan = (context: ChainContext = ctx) => scanPaymentsOnce(bed.t.app.deps, context, bed.t.app.log);

interface OrderData {
  id: number;
  order_key: Hex;
  asset: 'NADI' | 'USDT';
  amount: string;
  status: string;
  confirmations: number;
  token_address: Address;
  gateway_address: Address;
  tx_hash: string | null;
  reject_reason: string | null;
  fulfilled_at: string | null;
}

async function testOrder(user: TestUser, asset: 'NADI' | 'USDT', amount: string): Promise<OrderData> {
  const res = await apiPost(bed.t, user.token, '/api/v1/payment/testOrder', { asset, amount });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

async function readOrder(user: TestUser, id: number): Promise<OrderData> {
  const res = await apiGet(bed.t, user.token, `/api/v1/payment/order?id=${id}`);
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

/** Approves and pays through the gateway from demo account #from, as the payment stepper does. */
async function pay(from: number, orderKey: Hex, token: Address, amount: bigint) {
  const wallet = demoWallet(bed.chain.rpcUrl, from);
  const approve = await wallet.writeContract({ address: token, abi: nadiTokenAbi, functionName: 'approve', args: [bed.contracts.paymentGateway, amount] });
  expect((await bed.client.waitForTransactionReceipt({ hash: approve })).status).toBe('success');
  const hash = await wallet.writeContract({
    address: bed.contracts.paymentGateway,
    abi: paymentGatewayAbi,
    functionName: 'pay',
    args: [orderKey, token, amount],
  });
  const receipt = await bed.client.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return receipt;
}

describe('test orders', () => {
  it('creates an unpaid order with a random order key, the gateway and the token to pay with', async () => {
    const user = await newUser(bed.t);
    const a = await testOrder(user, 'NADI', '12.5');
    const b = await testOrder(user, 'USDT', '3');
    expect(a).toMatchObject({
      kind: 'test',
      asset: 'NADI',
      amount: '12.5',
      status: 'unpaid',
      chain_id: 31337,
      chain_name: 'NADI Local',
      gateway_address: bed.contracts.paymentGateway,
      gateway_method: 'pay',
      token_address: bed.contracts.nadi,
      confirmations: 0,
      confirmations_required: 3,
      tx_hash: null,
      reject_reason: null,
      fulfilled_at: null,
    });
    expect(a.order_key).toMatch(/^0x[0-9a-f]{64}$/);
    expect(b.order_key).not.toBe(a.order_key);
    expect(b.token_address).toBe(getAddress(bed.contracts.usdt));
    expect(await readOrder(user, a.id)).toEqual(a);
  });

  it('another user cannot read the order: NOT_FOUND, like an id that does not exist', async () => {
    const owner = await newUser(bed.t);
    const stranger = await newUser(bed.t);
    const order = await testOrder(owner, 'NADI', '1');
    for (const id of [order.id, 999_999]) {
      const res = await apiGet(bed.t, stranger.token, `/api/v1/payment/order?id=${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().reason).toBe('NOT_FOUND');
    }
    expect((await bed.t.app.inject({ method: 'GET', url: `/api/v1/payment/order?id=${order.id}` })).statusCode).toBe(401);
  });

  it('refuses bad input, and does not exist where test orders are off (production)', async () => {
    const user = await newUser(bed.t);
    for (const body of [
      { asset: 'NADI', amount: '0' },
      { asset: 'BTC', amount: '1' },
      { asset: 'USDT', amount: '-1' },
    ]) {
      const res = await apiPost(bed.t, user.token, '/api/v1/payment/testOrder', body);
      expect(res.statusCode).toBe(400);
    }
    const deps = { ...bed.t.app.deps, settings: { ...bed.t.settings, isTestOrderOn: false } };
    await expect(createTestOrder(deps, user.id, { asset: 'NADI', amount: 1n })).rejects.toSatisfy((e) => e instanceof AppError && e.reason === 'NOT_FOUND');
  });
});

describe('payment watcher', () => {
  it('fulfils a paid order once, after 3 confirmations and not before', async () => {
    const user = await newUser(bed.t);
    const order = await testOrder(user, 'NADI', '12.5');
    const receipt = await pay(1, order.order_key, bed.contracts.nadi, parseUnits('12.5', 18));
    await scan();
    expect(await readOrder(user, order.id)).toMatchObject({ status: 'paid', confirmations: 1, tx_hash: receipt.transactionHash, fulfilled_at: null });

    await mineBlocks(bed.chain.rpcUrl, 1);
    await scan();
    expect(await readOrder(user, order.id)).toMatchObject({ status: 'paid', confirmations: 2 });

    await mineBlocks(bed.chain.rpcUrl, 1);
    const third = await scan();
    expect(third.fulfilled).toBe(1);
    const done = await readOrder(user, order.id);
    expect(done).toMatchObject({ status: 'fulfilled', confirmations: 3, tx_hash: receipt.transactionHash });
    expect(done.fulfilled_at).not.toBeNull();

    await mineBlocks(bed.chain.rpcUrl, 2);
    expect((await scan()).fulfilled).toBe(0);
    expect(await readOrder(user, order.id)).toEqual(done);
  });

  it('a second payment of the same order is refused by the contract (OrderAlreadyPaid)', async () => {
    const user = await newUser(bed.t);
    const order = await testOrder(user, 'USDT', '2');
    await pay(2, order.order_key, bed.contracts.usdt, parseUnits('2', 18));
    await mineBlocks(bed.chain.rpcUrl, 3);
    await scan();
    expect((await readOrder(user, order.id)).status).toBe('fulfilled');
    const error = await bed.client
      .simulateContract({
        account: hardhatAccounts[3],
        address: bed.contracts.paymentGateway,
        abi: paymentGatewayAbi,
        functionName: 'pay',
        args: [order.order_key, bed.contracts.usdt, parseUnits('2', 18)],
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    const reverted = error instanceof BaseError ? error.walk((cause) => cause instanceof ContractFunctionRevertedError) : null;
    expect(reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : error).toBe('OrderAlreadyPaid');
  });

  it.each([
    ['another token', 'NADI', '5', 'usdt', '5', 'token_mismatch'],
    ['less than the amount', 'USDT', '10', 'usdt', '9.999999999999999999', 'amount_below_order'],
  ] as const)('a payment with %s is not fulfilled but rejected with the reason', async (_case, asset, amount, payToken, payAmount, reason) => {
    const user = await newUser(bed.t);
    const order = await testOrder(user, asset, amount);
    await pay(4, order.order_key, bed.contracts[payToken], parseUnits(payAmount, 18));
    await scan();
    expect((await readOrder(user, order.id)).status).toBe('paid');
    await mineBlocks(bed.chain.rpcUrl, 3);
    const round = await scan();
    expect(round.rejected).toBe(1);
    expect(await readOrder(user, order.id)).toMatchObject({ status: 'rejected', reject_reason: reason, fulfilled_at: null });
  });

  it('a payment above the amount fulfils the order', async () => {
    const user = await newUser(bed.t);
    const order = await testOrder(user, 'NADI', '3');
    await pay(5, order.order_key, bed.contracts.nadi, parseUnits('4', 18));
    await mineBlocks(bed.chain.rpcUrl, 3);
    await scan();
    expect((await readOrder(user, order.id)).status).toBe('fulfilled');
  });

  it('a payment reorganised away before 3 confirmations leaves the order unpaid, and it can be paid again', async () => {
    const user = await newUser(bed.t);
    const order = await testOrder(user, 'USDT', '1');
    const before = await snapshot(bed);
    await pay(6, order.order_key, bed.contracts.usdt, parseUnits('1', 18));
    await scan();
    expect((await readOrder(user, order.id)).status).toBe('paid');
    await revertTo(bed, before);
    await mineBlocks(bed.chain.rpcUrl, 6);
    const round = await scan();
    expect(round.reverted).toBe(1);
    expect(await readOrder(user, order.id)).toMatchObject({ status: 'unpaid', tx_hash: null, confirmations: 0 });

    const receipt = await pay(6, order.order_key, bed.contracts.usdt, parseUnits('1', 18));
    await mineBlocks(bed.chain.rpcUrl, 2);
    await scan();
    expect(await readOrder(user, order.id)).toMatchObject({ status: 'fulfilled', tx_hash: receipt.transactionHash });
  });

  it('a confirmed payment whose receipt says the transaction failed is not fulfilled (faked receipt)', async () => {
    const user = await newUser(bed.t);
    const order = await testOrder(user, 'NADI', '2');
    await pay(3, order.order_key, bed.contracts.nadi, parseUnits('2', 18));
    await mineBlocks(bed.chain.rpcUrl, 3);
    const lying = withClient(bed.context(), {
      getTransactionReceipt: async (args: { hash: Hex }) => ({ ...(await bed.client.getTransactionReceipt(args)), status: 'reverted' }),
    });
    const round = await scan(lying);
    expect(round.fulfilled).toBe(0);
    expect(await readOrder(user, order.id)).toMatchObject({ status: 'unpaid', fulfilled_at: null });
  });

  it('a watcher whose head is older than a payment another watcher recorded leaves it paid, and it is fulfilled', async () => {
    const user = await newUser(bed.t);
    const order = await testOrder(user, 'NADI', '3');
    const receipt = await pay(4, order.order_key, bed.contracts.nadi, parseUnits('3', 18));
    await scan();
    // Another instance read its head just before the payment's block: not a reorg, so not unpaid.
    const behind = withClient(bed.context(), { getBlockNumber: async () => receipt.blockNumber - 1n });
    expect((await scan(behind)).reverted).toBe(0);
    expect(await readOrder(user, order.id)).toMatchObject({ status: 'paid', tx_hash: receipt.transactionHash });
    await mineBlocks(bed.chain.rpcUrl, 2);
    expect((await scan()).fulfilled).toBe(1);
    expect((await readOrder(user, order.id)).status).toBe('fulfilled');
  });

  it('the same Paid events processed by several watchers at once fulfil each order once', async () => {
    const orders: { user: TestUser; order: OrderData }[] = [];
    for (const from of [7, 8, 9]) {
      const user = await newUser(bed.t);
      const order = await testOrder(user, 'NADI', '1');
      await pay(from, order.order_key, bed.contracts.nadi, parseUnits('1', 18));
      orders.push({ user, order });
    }
    await mineBlocks(bed.chain.rpcUrl, 3);
    const rounds = await Promise.all(Array.from({ length: 4 }, () => scan(bed.context())));
    expect(rounds.reduce((sum, r) => sum + r.fulfilled, 0)).toBe(3);
    for (const { user, order } of orders) expect((await readOrder(user, order.id)).status).toBe('fulfilled');
  });
});
