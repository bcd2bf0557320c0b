import type { GatewayMethod, PaymentOrder } from '@nadi/api/onchain';
import { units } from '@nadi/money/money';
import { paymentErrorOutcome } from './payment-errors.ts';

// The wallet payment of docs/product.md section 4 as one pure flow: every call to the wallet, the chain and
// the server goes through `PaymentDeps`, so tests drive it with a fake world and the stepper
// component only shows what it reports.

/** The payment steps of docs/product.md section 4 in order, with "switch network" before the balance is read. */
export const paymentSteps = ['install', 'connect', 'network', 'balance', 'allowance', 'approve', 'approve-wait', 'pay', 'pay-wait'] as const;
export type PaymentStep = (typeof paymentSteps)[number];

export type Hash = `0x${string}`;
export type Address = `0x${string}`;

/** Amounts in base units (18 decimals) with the symbol they are counted in. */
export interface Shortfall {
  currentUnits: bigint | null;
  requiredUnits: bigint | null;
  symbol: string;
}

/** `order-rejected`: the server saw a payment that did not match the order (token or amount); the order id is used up. */
export type FailureReason = 'reverted' | 'rate-limited' | 'wrong-network' | 'order-rejected' | 'error';

/** How a wallet flow ended; `S` is its steps (the payment's by default, lib/payment/transfer-flow.ts has others). */
export type PaymentOutcome<S extends string = PaymentStep> =
  | { kind: 'success'; txHash: Hash | null }
  | { kind: 'no-wallet' }
  | ({ kind: 'insufficient-balance' } & Shortfall)
  | ({ kind: 'insufficient-gas' } & Shortfall)
  | ({ kind: 'insufficient-allowance' } & Shortfall)
  | { kind: 'cancelled'; step: S }
  | { kind: 'failed'; step: S; reason: FailureReason }
  /** Paid on chain, but the server has not counted the confirmations within the wait limit. */
  | { kind: 'pending'; txHash: Hash | null };

export type OutcomeKind = PaymentOutcome['kind'];

/** What the flow needs of an order (the contract's PaymentOrder). */
export type PayableOrder = Pick<
  PaymentOrder,
  'id' | 'order_key' | 'asset' | 'amount' | 'status' | 'chain_id' | 'gateway_address' | 'gateway_method' | 'token_address' | 'tx_hash'
>;

/** The wallet and the chain (lib/payment/payment-chain.ts with wagmi and viem). */
export interface PaymentChain {
  hasWallet(): Promise<boolean>;
  /** The connected account, connecting first when needed. */
  connect(): Promise<Address>;
  chainId(): Promise<number>;
  switchChain(chainId: number): Promise<void>;
  nativeSymbol: string;
  tokenBalance(token: Address, owner: Address): Promise<bigint>;
  nativeBalance(owner: Address): Promise<bigint>;
  allowance(token: Address, owner: Address, spender: Address): Promise<bigint>;
  /** Estimated gas × the fee per gas, in the native coin's base units. */
  approveCost(token: Address, spender: Address, amount: bigint, owner: Address): Promise<bigint>;
  /** `method` is the order's gateway function: `pay`, or `payAndBurn` for orders whose tokens are burned. */
  payCost(method: GatewayMethod, gateway: Address, orderKey: Hash, token: Address, amount: bigint, owner: Address): Promise<bigint>;
  approve(token: Address, spender: Address, amount: bigint, owner: Address): Promise<Hash>;
  pay(method: GatewayMethod, gateway: Address, orderKey: Hash, token: Address, amount: bigint, owner: Address): Promise<Hash>;
  waitForReceipt(hash: Hash): Promise<'success' | 'reverted'>;
}

export interface PaymentDeps extends PaymentChain, FlowControl<PaymentStep> {
  /** GET /api/v1/payment/order. */
  getOrder(id: number): Promise<Pick<PaymentOrder, 'status' | 'confirmations' | 'confirmations_required'>>;
  sleep(ms: number): Promise<void>;
  now(): number;
  onConfirmations(confirmations: number, required: number): void;
}

/** How often the order is read while the server counts confirmations. */
export const orderPollMs = 2_000;
/** After this the screen stops waiting and says the payment will complete on its own. */
export const fulfilmentWaitMsMax = 10 * 60_000;

class Stopped extends Error {
  override name = 'Stopped';
}

/** What every wallet flow reports to its screen, and how the screen stops it. */
export interface FlowControl<S extends string> {
  onStep(step: S): void;
  /** True once the screen is gone: the flow stops before its next wallet request. */
  isStopped(): boolean;
}

/**
 * Runs a wallet flow's body from its first step: each step entered is reported (and the flow
 * stops there once the screen is gone, resolving with null); a thrown wallet, RPC or contract error
 * becomes an outcome at the step it happened in.
 */
export async function runWalletFlow<S extends string>(
  control: FlowControl<S>,
  names: { asset: string; nativeSymbol: string },
  first: S,
  body: (enter: (step: S) => void) => Promise<PaymentOutcome<S>>,
): Promise<PaymentOutcome<S> | null> {
  let step = first;
  const enter = (next: S) => {
    if (control.isStopped()) throw new Stopped();
    step = next;
    control.onStep(next);
  };
  try {
    return await body(enter);
  } catch (error) {
    if (error instanceof Stopped) return null;
    return paymentErrorOutcome(error, step, names.asset, names.nativeSymbol);
  }
}

type WalletAccess = Pick<PaymentChain, 'hasWallet' | 'connect' | 'chainId' | 'switchChain'>;

/**
 * The steps every wallet flow starts with: a wallet is there (install), its account (connect),
 * and it is on `chainId` (network: switched when it is not, refused when the wallet stays elsewhere).
 */
export async function connectOnChain<S extends string>(
  deps: WalletAccess,
  chainId: number,
  enter: (step: S | 'install' | 'connect' | 'network') => void,
): Promise<{ account: Address } | { outcome: PaymentOutcome<S | 'network'> }> {
  enter('install');
  if (!(await deps.hasWallet())) return { outcome: { kind: 'no-wallet' } };
  enter('connect');
  const account = await deps.connect();
  enter('network');
  if ((await deps.chainId()) !== chainId) await deps.switchChain(chainId);
  if ((await deps.chainId()) !== chainId) return { outcome: { kind: 'failed', step: 'network', reason: 'wrong-network' } };
  return { account };
}

/** Waits until the server has seen the payment reach its confirmations and fulfilled the order. */
async function waitForFulfilment(deps: PaymentDeps, orderId: number, txHash: Hash | null): Promise<PaymentOutcome> {
  const deadline = deps.now() + fulfilmentWaitMsMax;
  for (;;) {
    if (deps.isStopped()) throw new Stopped();
    // A failed read is retried on the next round: the payment is on chain whatever the server says now.
    const order = await deps.getOrder(orderId).catch(() => null);
    if (order) {
      deps.onConfirmations(order.confirmations, order.confirmations_required);
      if (order.status === 'fulfilled') return { kind: 'success', txHash };
      if (order.status === 'rejected') return { kind: 'failed', step: 'pay-wait', reason: 'order-rejected' };
    }
    if (deps.now() >= deadline) return { kind: 'pending', txHash };
    await deps.sleep(orderPollMs);
  }
}

/** Null when the native coin covers the cost of the next transaction. */
export async function gasShortfall(
  deps: Pick<PaymentChain, 'nativeBalance' | 'nativeSymbol'>,
  account: Address,
  cost: Promise<bigint>,
): Promise<({ kind: 'insufficient-gas' } & Shortfall) | null> {
  const [requiredUnits, currentUnits] = await Promise.all([cost, deps.nativeBalance(account)]);
  return currentUnits < requiredUnits ? { kind: 'insufficient-gas', currentUnits, requiredUnits, symbol: deps.nativeSymbol } : null;
}

interface Payment {
  account: Address;
  token: Address;
  gateway: Address;
  method: GatewayMethod;
  orderKey: Hash;
  requiredUnits: bigint;
  symbol: string;
}

/** Approves exactly the order's amount when the allowance is short; null when the payment may go on. */
async function authorize(deps: PaymentDeps, p: Payment, enter: (step: PaymentStep) => void): Promise<PaymentOutcome | null> {
  enter('allowance');
  if ((await deps.allowance(p.token, p.account, p.gateway)) >= p.requiredUnits) return null;
  enter('approve');
  const short = await gasShortfall(deps, p.account, deps.approveCost(p.token, p.gateway, p.requiredUnits, p.account));
  if (short) return short;
  const approveHash = await deps.approve(p.token, p.gateway, p.requiredUnits, p.account);
  enter('approve-wait');
  if ((await deps.waitForReceipt(approveHash)) !== 'success') return { kind: 'failed', step: 'approve-wait', reason: 'reverted' };
  // Wallets let the user lower the amount in the approval screen; then the payment would revert.
  const allowance = await deps.allowance(p.token, p.account, p.gateway);
  if (allowance < p.requiredUnits) return { kind: 'insufficient-allowance', currentUnits: allowance, requiredUnits: p.requiredUnits, symbol: p.symbol };
  return null;
}

async function payOrder(deps: PaymentDeps, order: PayableOrder, enter: (step: PaymentStep) => void): Promise<PaymentOutcome> {
  const connected = await connectOnChain<PaymentStep>(deps, order.chain_id, enter);
  if ('outcome' in connected) return connected.outcome;
  const { account } = connected;
  enter('balance');
  const p: Payment = {
    account,
    token: order.token_address as Address,
    gateway: order.gateway_address as Address,
    method: order.gateway_method,
    orderKey: order.order_key as Hash,
    requiredUnits: units(order.amount),
    symbol: order.asset,
  };
  const balance = await deps.tokenBalance(p.token, account);
  if (balance < p.requiredUnits) return { kind: 'insufficient-balance', currentUnits: balance, requiredUnits: p.requiredUnits, symbol: p.symbol };
  const refusal = await authorize(deps, p, enter);
  if (refusal) return refusal;
  enter('pay');
  const short = await gasShortfall(deps, account, deps.payCost(p.method, p.gateway, p.orderKey, p.token, p.requiredUnits, account));
  if (short) return short;
  const txHash = await deps.pay(p.method, p.gateway, p.orderKey, p.token, p.requiredUnits, account);
  enter('pay-wait');
  if ((await deps.waitForReceipt(txHash)) !== 'success') return { kind: 'failed', step: 'pay-wait', reason: 'reverted' };
  return waitForFulfilment(deps, order.id, txHash);
}

/**
 * Pays an order from the user's wallet: install → connect → network → balance → allowance →
 * approve → wait → pay → wait for the server to count the confirmations. An order the server
 * already saw paid is never paid again; the flow only waits for it. Resolves with the outcome,
 * or null when the screen went away meanwhile.
 */
export async function runPayment(deps: PaymentDeps, order: PayableOrder): Promise<PaymentOutcome | null> {
  return runWalletFlow<PaymentStep>(deps, { asset: order.asset, nativeSymbol: deps.nativeSymbol }, 'install', async (enter) => {
    // The server has seen a payment for this order (or refused one): paying again would only revert.
    if (order.status !== 'unpaid') {
      enter('pay-wait');
      return waitForFulfilment(deps, order.id, (order.tx_hash as Hash | null) ?? null);
    }
    return payOrder(deps, order, enter);
  });
}
