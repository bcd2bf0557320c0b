import { units } from '@nadi/money/money';
import {
  connectOnChain,
  gasShortfall,
  runWalletFlow,
  type Address,
  type FlowControl,
  type Hash,
  type PaymentChain,
  type PaymentOutcome,
} from './payment-flow.ts';

// A plain ERC-20 transfer from the user's wallet (a recharge: NADI to the user's own deposit
// address), on the payment stepper's pieces: the same first steps (install, connect, switch
// network), the same balance and gas checks and the same error outcomes. There is no order and no
// gateway: the server's deposit watcher sees the Transfer and credits it (docs/onchain.md).

/** The transfer's steps in order: "gas" compares the native balance with the transfer's estimated fee. */
export const transferSteps = ['install', 'connect', 'network', 'balance', 'gas', 'transfer', 'transfer-wait'] as const;
export type TransferStep = (typeof transferSteps)[number];
export type TransferOutcome = PaymentOutcome<TransferStep>;

/** What to send: `amount` is a decimal string of the token's 18 decimals. */
export interface TokenTransfer {
  chainId: number;
  token: Address;
  to: Address;
  amount: string;
  asset: string;
}

/** The wallet and the chain (lib/payment/payment-chain.ts). */
export interface TransferChain
  extends Pick<PaymentChain, 'hasWallet' | 'connect' | 'chainId' | 'switchChain' | 'nativeSymbol' | 'tokenBalance' | 'nativeBalance' | 'waitForReceipt'> {
  /** Estimated gas of `transfer(to, amount)` × the fee per gas, in the native coin's base units. */
  transferCost(token: Address, to: Address, amount: bigint, owner: Address): Promise<bigint>;
  /** Sends `transfer(to, amount)` from `owner`; the wallet must be on `chainId` (never sent elsewhere). */
  transfer(token: Address, to: Address, amount: bigint, owner: Address, chainId: number): Promise<Hash>;
}

export interface TransferDeps extends TransferChain, FlowControl<TransferStep> {}

/**
 * Sends `amount` of the token to `to` from the user's wallet: install → connect → network →
 * balance → gas → transfer → wait for the receipt. Nothing is sent unless the wallet is on the
 * transfer's chain and holds the amount and the fee. Resolves with the outcome, or null when the
 * screen went away meanwhile. One call sends at most one transaction; a retry is a new call.
 */
export function runTransfer(deps: TransferDeps, transfer: TokenTransfer): Promise<TransferOutcome | null> {
  return runWalletFlow<TransferStep>(deps, { asset: transfer.asset, nativeSymbol: deps.nativeSymbol }, 'install', async (enter) => {
    const connected = await connectOnChain<TransferStep>(deps, transfer.chainId, enter);
    if ('outcome' in connected) return connected.outcome;
    const { account } = connected;
    const requiredUnits = units(transfer.amount);
    enter('balance');
    const balance = await deps.tokenBalance(transfer.token, account);
    if (balance < requiredUnits) return { kind: 'insufficient-balance', currentUnits: balance, requiredUnits, symbol: transfer.asset };
    enter('gas');
    const short = await gasShortfall(deps, account, deps.transferCost(transfer.token, transfer.to, requiredUnits, account));
    if (short) return short;
    enter('transfer');
    const txHash = await deps.transfer(transfer.token, transfer.to, requiredUnits, account, transfer.chainId);
    enter('transfer-wait');
    if ((await deps.waitForReceipt(txHash)) !== 'success') return { kind: 'failed', step: 'transfer-wait', reason: 'reverted' };
    return { kind: 'success', txHash };
  });
}
