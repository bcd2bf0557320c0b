import { causes, isNoProviderError, isUserRejection, walletErrorCode } from '../wallet/wallet-errors.ts';
import type { PaymentOutcome } from './payment-flow.ts';

// A thrown wallet, RPC or contract error turned into one of the payment outcomes of docs/product.md section 4. Wallets,
// wagmi and viem wrap errors several levels deep, so names, codes and revert reasons are searched
// along the `cause` chain.

/** EIP-1474: the node or the wallet's RPC refused for too many requests. */
const limitExceededCode = -32005;
const insufficientFundsNames = new Set(['InsufficientFundsError']);
/** The custom errors of OpenZeppelin's ERC-20, decoded by viem into `data.errorName`. */
const allowanceErrorNames = new Set(['ERC20InsufficientAllowance']);
const balanceErrorNames = new Set(['ERC20InsufficientBalance']);
/** Wallets that do not decode the revert still say it in words. */
const insufficientFundsText = /insufficient funds/i;
const allowanceText = /insufficient allowance|exceeds allowance/i;
const balanceText = /exceeds balance|insufficient balance/i;

interface ErrorFacts {
  names: Set<string>;
  revertNames: Set<string>;
  text: string;
  httpStatus: number | null;
}

function factsOf(error: unknown): ErrorFacts {
  const facts: ErrorFacts = { names: new Set(), revertNames: new Set(), text: '', httpStatus: null };
  for (const item of causes(error)) {
    if (typeof item.name === 'string') facts.names.add(item.name);
    const data = item.data as { errorName?: unknown } | undefined;
    if (typeof data?.errorName === 'string') facts.revertNames.add(data.errorName);
    if (typeof item.shortMessage === 'string') facts.text += ` ${item.shortMessage}`;
    if (typeof item.details === 'string') facts.text += ` ${item.details}`;
    if (typeof item.message === 'string') facts.text += ` ${item.message}`;
    if (typeof item.status === 'number') facts.httpStatus = item.status;
  }
  return facts;
}

function hasAny(names: Set<string>, wanted: Set<string>): boolean {
  return [...names].some((name) => wanted.has(name));
}

export function paymentErrorOutcome<S extends string>(error: unknown, step: S, asset: string, nativeSymbol: string): PaymentOutcome<S> {
  if (isUserRejection(error)) return { kind: 'cancelled', step };
  if (isNoProviderError(error)) return { kind: 'no-wallet' };
  const facts = factsOf(error);
  const shortfall = { currentUnits: null, requiredUnits: null };
  if (hasAny(facts.names, insufficientFundsNames) || insufficientFundsText.test(facts.text)) {
    return { kind: 'insufficient-gas', ...shortfall, symbol: nativeSymbol };
  }
  if (hasAny(facts.revertNames, allowanceErrorNames) || allowanceText.test(facts.text)) {
    return { kind: 'insufficient-allowance', ...shortfall, symbol: asset };
  }
  if (hasAny(facts.revertNames, balanceErrorNames) || balanceText.test(facts.text)) {
    return { kind: 'insufficient-balance', ...shortfall, symbol: asset };
  }
  const code = walletErrorCode(error);
  if (code === limitExceededCode || facts.httpStatus === 429) return { kind: 'failed', step, reason: 'rate-limited' };
  // The wallet could not switch (an unknown chain it refused to add, or no switching at all): the
  // user has to switch by hand, and the message says to which network.
  if (step === 'network') return { kind: 'failed', step, reason: 'wrong-network' };
  return { kind: 'failed', step, reason: 'error' };
}
