import { describe, expect, it } from 'vitest';
import { fulfilmentWaitMsMax, runPayment, type Address, type Hash, type PayableOrder, type PaymentDeps, type PaymentStep } from './payment-flow.ts';

// The payment flow against a fake wallet, chain and server: what they hold and answer is the
// input, and the steps the user sees and the outcome are what is checked.

const one = 10n ** 18n;
const account = '0x1111111111111111111111111111111111111111' as Address;
const order: PayableOrder = {
  id: 7,
  order_key: `0x${'0a'.repeat(32)}`,
  asset: 'NADI',
  amount: '100',
  status: 'unpaid',
  chain_id: 31337,
  gateway_address: '0x2222222222222222222222222222222222222222',
  gateway_method: 'pay',
  token_address: '0x3333333333333333333333333333333333333333',
  tx_hash: null,
};
const rejection = () => Object.assign(new Error('User rejected the request.'), { code: 4001 });

interface World {
  hasWallet?: boolean;
  chainId?: number;
  /** What the wallet's chain becomes after a switch (unchanged when it cannot switch). */
  chainAfterSwitch?: number;
  token?: bigint;
  native?: bigint;
  allowance?: bigint;
  /** What the user lets the approval be for (wallets let them edit it). */
  approvedAmount?: (requested: bigint) => bigint;
  gasCost?: bigint;
  approveReceipt?: 'success' | 'reverted';
  payReceipt?: 'success' | 'reverted';
  reject?: 'connect' | 'switch' | 'approve' | 'pay';
  /** Confirmations the server reports on each read, then fulfilled once it reaches 3. */
  confirmations?: number[];
}

function makeDeps(world: World) {
  const log = { steps: [] as PaymentStep[], approvals: [] as bigint[], payments: 0, methods: [] as string[], reads: [] as number[], switched: [] as number[] };
  let chainId = world.chainId ?? 31337;
  let allowance = world.allowance ?? 0n;
  let clock = 0;
  const confirmations = [...(world.confirmations ?? [1, 2, 3])];
  const fail = (what: World['reject']) => {
    if (world.reject === what) throw rejection();
  };
  const deps: PaymentDeps = {
    nativeSymbol: 'ETH',
    hasWallet: async () => world.hasWallet ?? true,
    connect: async () => {
      fail('connect');
      return account;
    },
    chainId: async () => chainId,
    switchChain: async (id) => {
      fail('switch');
      log.switched.push(id);
      chainId = world.chainAfterSwitch ?? id;
    },
    tokenBalance: async () => world.token ?? 1000n * one,
    nativeBalance: async () => world.native ?? one,
    allowance: async () => allowance,
    approveCost: async () => world.gasCost ?? 1000n,
    payCost: async (method) => {
      log.methods.push(`cost:${method}`);
      return world.gasCost ?? 1000n;
    },
    approve: async (_token, _spender, amount) => {
      fail('approve');
      log.approvals.push(amount);
      allowance = world.approvedAmount ? world.approvedAmount(amount) : amount;
      return `0x${'aa'.repeat(32)}` as Hash;
    },
    pay: async (method) => {
      fail('pay');
      log.payments += 1;
      log.methods.push(method);
      return `0x${'bb'.repeat(32)}` as Hash;
    },
    waitForReceipt: async (hash) => (hash.startsWith('0xaa') ? (world.approveReceipt ?? 'success') : (world.payReceipt ?? 'success')),
    getOrder: async () => {
      const count = confirmations.shift() ?? 3;
      return { status: count >= 3 ? 'fulfilled' : 'paid', confirmations: count, confirmations_required: 3 };
    },
    sleep: async (ms) => {
      clock += ms;
    },
    now: () => clock,
    onStep: (step) => log.steps.push(step),
    onConfirmations: (count) => log.reads.push(count),
    isStopped: () => false,
  };
  return { deps, log };
}

describe('runPayment (docs/product.md section 4, payment steps)', () => {
  it('calls the gateway function the order names: payAndBurn for an order whose tokens are burned (destroy)', async () => {
    const { deps, log } = makeDeps({});
    expect(await runPayment(deps, { ...order, gateway_method: 'payAndBurn' })).toMatchObject({ kind: 'success' });
    expect(log.methods).toEqual(['cost:payAndBurn', 'payAndBurn']);
    expect(log.payments).toBe(1);
  });

  it('approves exactly the amount, pays once and waits for 3 confirmations', async () => {
    const { deps, log } = makeDeps({});
    expect(await runPayment(deps, order)).toEqual({ kind: 'success', txHash: `0x${'bb'.repeat(32)}` });
    expect(log.steps).toEqual(['install', 'connect', 'network', 'balance', 'allowance', 'approve', 'approve-wait', 'pay', 'pay-wait']);
    expect(log.approvals).toEqual([100n * one]);
    expect(log.payments).toBe(1);
    expect(log.methods).toEqual(['cost:pay', 'pay']);
    expect(log.reads).toEqual([1, 2, 3]);
  });

  it('skips the approval when the allowance already covers the amount', async () => {
    const { deps, log } = makeDeps({ allowance: 100n * one });
    expect((await runPayment(deps, order))?.kind).toBe('success');
    expect(log.steps).toEqual(['install', 'connect', 'network', 'balance', 'allowance', 'pay', 'pay-wait']);
    expect(log.approvals).toEqual([]);
  });

  it("asks to switch to the order's network first, and stops when the wallet stays elsewhere", async () => {
    const switched = makeDeps({ chainId: 56 });
    expect((await runPayment(switched.deps, order))?.kind).toBe('success');
    expect(switched.log.switched).toEqual([31337]);

    const stuck = makeDeps({ chainId: 56, chainAfterSwitch: 56 });
    expect(await runPayment(stuck.deps, order)).toEqual({ kind: 'failed', step: 'network', reason: 'wrong-network' });
    expect(stuck.log.payments).toBe(0);
  });

  it('reports insufficient balance with the current and required amounts, before any transaction', async () => {
    const { deps, log } = makeDeps({ token: 40n * one });
    expect(await runPayment(deps, order)).toEqual({ kind: 'insufficient-balance', currentUnits: 40n * one, requiredUnits: 100n * one, symbol: 'NADI' });
    expect(log.approvals).toEqual([]);
    expect(log.payments).toBe(0);
  });

  it('reports insufficient gas when the native coin is below the estimated cost', async () => {
    const { deps, log } = makeDeps({ native: 999n, gasCost: 1000n });
    expect(await runPayment(deps, order)).toEqual({ kind: 'insufficient-gas', currentUnits: 999n, requiredUnits: 1000n, symbol: 'ETH' });
    expect(log.steps.at(-1)).toBe('approve');
    expect(log.approvals).toEqual([]);
  });

  it('reports insufficient authorization when the user approved less than asked', async () => {
    const { deps, log } = makeDeps({ approvedAmount: () => 10n * one });
    expect(await runPayment(deps, order)).toEqual({ kind: 'insufficient-allowance', currentUnits: 10n * one, requiredUnits: 100n * one, symbol: 'NADI' });
    expect(log.payments).toBe(0);
  });

  it.each(['connect', 'switch', 'approve', 'pay'] as const)('reports "user cancelled" when the user rejects %s in the wallet', async (what) => {
    const { deps, log } = makeDeps({ reject: what, chainId: what === 'switch' ? 56 : 31337 });
    const outcome = await runPayment(deps, order);
    expect(outcome?.kind).toBe('cancelled');
    expect(log.payments).toBe(0);
  });

  it('names the step where the user cancelled', async () => {
    const { deps } = makeDeps({ reject: 'approve' });
    expect(await runPayment(deps, order)).toEqual({ kind: 'cancelled', step: 'approve' });
  });

  it('reports a reverted approval or payment as a failed payment', async () => {
    expect(await runPayment(makeDeps({ approveReceipt: 'reverted' }).deps, order)).toEqual({ kind: 'failed', step: 'approve-wait', reason: 'reverted' });
    expect(await runPayment(makeDeps({ payReceipt: 'reverted' }).deps, order)).toEqual({ kind: 'failed', step: 'pay-wait', reason: 'reverted' });
  });

  it('asks to install a wallet when there is none', async () => {
    const { deps, log } = makeDeps({ hasWallet: false });
    expect(await runPayment(deps, order)).toEqual({ kind: 'no-wallet' });
    expect(log.steps).toEqual(['install']);
  });

  it('never pays an order the server already saw paid: it only waits for it', async () => {
    const { deps, log } = makeDeps({ confirmations: [2, 3] });
    const outcome = await runPayment(deps, { ...order, status: 'paid', tx_hash: `0x${'cc'.repeat(32)}` });
    expect(outcome).toEqual({ kind: 'success', txHash: `0x${'cc'.repeat(32)}` });
    expect(log.steps).toEqual(['pay-wait']);
    expect(log.payments).toBe(0);
  });

  it('reports an order the server refused (another token, or less than the amount) without paying again', async () => {
    const refused = makeDeps({});
    refused.deps.getOrder = async () => ({ status: 'rejected', confirmations: 3, confirmations_required: 3 });
    expect(await runPayment(refused.deps, order)).toEqual({ kind: 'failed', step: 'pay-wait', reason: 'order-rejected' });
    expect(refused.log.payments).toBe(1);

    const already = makeDeps({});
    already.deps.getOrder = refused.deps.getOrder;
    expect(await runPayment(already.deps, { ...order, status: 'rejected' })).toEqual({ kind: 'failed', step: 'pay-wait', reason: 'order-rejected' });
    expect(already.log.payments).toBe(0);
  });

  it('stops waiting after the limit and says the payment is on its way', async () => {
    const { deps } = makeDeps({ confirmations: Array.from({ length: 1000 }, () => 1) });
    expect(await runPayment(deps, order)).toEqual({ kind: 'pending', txHash: `0x${'bb'.repeat(32)}` });
    expect(deps.now()).toBeGreaterThanOrEqual(fulfilmentWaitMsMax);
  });

  it('keeps waiting through a failed order read', async () => {
    const { deps } = makeDeps({});
    let calls = 0;
    const getOrder = deps.getOrder;
    deps.getOrder = async (id) => {
      calls += 1;
      if (calls === 1) throw new Error('offline');
      return getOrder(id);
    };
    expect((await runPayment(deps, order))?.kind).toBe('success');
  });

  it('ends quietly (null) when the screen is gone', async () => {
    const { deps, log } = makeDeps({});
    deps.isStopped = () => log.steps.length >= 2;
    expect(await runPayment(deps, order)).toBeNull();
    expect(log.payments).toBe(0);
  });
});
