import { describe, expect, it } from 'vitest';
import { InsufficientFundsError, TransactionExecutionError } from 'viem';
import { runTransfer, type TokenTransfer, type TransferDeps, type TransferStep } from './transfer-flow.ts';
import type { Address, Hash } from './payment-flow.ts';

// The wallet transfer of a recharge against a fake wallet and chain: what they hold and answer is
// the input; the steps reported, what was sent and the outcome are what is checked.

const one = 10n ** 18n;
const account = '0x1111111111111111111111111111111111111111' as Address;
const transfer: TokenTransfer = {
  chainId: 31337,
  token: '0x3333333333333333333333333333333333333333',
  to: '0x4444444444444444444444444444444444444444',
  amount: '12.5',
  asset: 'NADI',
};
const txHash = `0x${'cc'.repeat(32)}` as Hash;
const rejection = () => Object.assign(new Error('User rejected the request.'), { code: 4001 });

interface World {
  hasWallet?: boolean;
  chainId?: number;
  chainAfterSwitch?: number;
  token?: bigint;
  native?: bigint;
  gasCost?: bigint;
  receipt?: 'success' | 'reverted';
  reject?: 'connect' | 'switch' | 'transfer';
  /** Thrown by the transfer (the wallet's own gas check, for one). */
  transferError?: Error;
  stopAt?: TransferStep;
}

function makeDeps(world: World) {
  const log = { steps: [] as TransferStep[], switched: [] as number[], sent: [] as { to: Address; amount: bigint; chainId: number }[] };
  let chainId = world.chainId ?? 31337;
  const fail = (what: World['reject']) => {
    if (world.reject === what) throw rejection();
  };
  const deps: TransferDeps = {
    nativeSymbol: 'BNB',
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
    tokenBalance: async () => world.token ?? 100n * one,
    nativeBalance: async () => world.native ?? one,
    transferCost: async () => world.gasCost ?? 21_000n,
    transfer: async (_token, to, amount, _owner, onChain) => {
      fail('transfer');
      if (world.transferError) throw world.transferError;
      log.sent.push({ to, amount, chainId: onChain });
      return txHash;
    },
    waitForReceipt: async () => world.receipt ?? 'success',
    onStep: (step) => log.steps.push(step),
    isStopped: () => world.stopAt !== undefined && log.steps.includes(world.stopAt),
  };
  return { deps, log };
}

describe('runTransfer (send from my wallet)', () => {
  it('sends exactly the amount to the deposit address once, and succeeds with the receipt', async () => {
    const { deps, log } = makeDeps({});
    expect(await runTransfer(deps, transfer)).toEqual({ kind: 'success', txHash });
    expect(log.steps).toEqual(['install', 'connect', 'network', 'balance', 'gas', 'transfer', 'transfer-wait']);
    expect(log.sent).toEqual([{ to: transfer.to, amount: 12n * one + one / 2n, chainId: 31337 }]);
    expect(log.switched).toEqual([]);
  });

  it("switches to the app's network first, and sends nothing when the wallet stays elsewhere", async () => {
    const switched = makeDeps({ chainId: 56 });
    expect((await runTransfer(switched.deps, transfer))?.kind).toBe('success');
    expect(switched.log.switched).toEqual([31337]);

    const stuck = makeDeps({ chainId: 56, chainAfterSwitch: 56 });
    expect(await runTransfer(stuck.deps, transfer)).toEqual({ kind: 'failed', step: 'network', reason: 'wrong-network' });
    expect(stuck.log.sent).toEqual([]);
  });

  it('refuses more than the wallet holds, with both amounts, before any transaction', async () => {
    const { deps, log } = makeDeps({ token: 10n * one });
    expect(await runTransfer(deps, transfer)).toEqual({
      kind: 'insufficient-balance',
      currentUnits: 10n * one,
      requiredUnits: 12n * one + one / 2n,
      symbol: 'NADI',
    });
    expect(log.sent).toEqual([]);
  });

  it('reports insufficient gas as its own outcome, from the estimate or from the wallet', async () => {
    const estimated = makeDeps({ native: 1_000n, gasCost: 21_000n });
    expect(await runTransfer(estimated.deps, transfer)).toEqual({ kind: 'insufficient-gas', currentUnits: 1_000n, requiredUnits: 21_000n, symbol: 'BNB' });
    expect(estimated.log.steps.at(-1)).toBe('gas');
    expect(estimated.log.sent).toEqual([]);

    const thrown = makeDeps({ transferError: new TransactionExecutionError(new InsufficientFundsError(), { account: null }) });
    expect(await runTransfer(thrown.deps, transfer)).toMatchObject({ kind: 'insufficient-gas', symbol: 'BNB' });
  });

  it('reads a rejection in the wallet as cancelled at its step', async () => {
    expect(await runTransfer(makeDeps({ reject: 'transfer' }).deps, transfer)).toEqual({ kind: 'cancelled', step: 'transfer' });
    expect(await runTransfer(makeDeps({ reject: 'connect' }).deps, transfer)).toEqual({ kind: 'cancelled', step: 'connect' });
    expect(await runTransfer(makeDeps({ chainId: 1, reject: 'switch' }).deps, transfer)).toEqual({ kind: 'cancelled', step: 'network' });
  });

  it('asks for a wallet when there is none, and fails when the transfer reverted', async () => {
    expect(await runTransfer(makeDeps({ hasWallet: false }).deps, transfer)).toEqual({ kind: 'no-wallet' });
    expect(await runTransfer(makeDeps({ receipt: 'reverted' }).deps, transfer)).toEqual({ kind: 'failed', step: 'transfer-wait', reason: 'reverted' });
  });

  it('stops without an outcome once the screen is gone', async () => {
    const { deps, log } = makeDeps({ stopAt: 'balance' });
    expect(await runTransfer(deps, transfer)).toBeNull();
    expect(log.sent).toEqual([]);
  });
});
