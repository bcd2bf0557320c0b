import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { feeOf, mulDiv, toDecimalString } from '@nadi/money/money';
import type { Asset, AssetsData, ExchangeQuoteData, TransferData, UserAccountKind } from '@nadi/api/wallet';
import type { AppDeps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { exchangeQuotes } from './schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { fee, postFlow, runFlow, systemAccount, transfer, userAccount } from '../ledger/index.ts';
import { readUserAccounts } from '../ledger/index.ts';
import { exchangeFeeBps, nadiPrice } from './price.ts';

const one = 10n ** 18n;
/** How long a quote holds its price. */
export const quoteTtlMs = 10_000;

export function valueInUsdt(asset: Asset, amount: bigint, price: bigint): bigint {
  return asset === 'USDT' ? amount : mulDiv(amount, price, one, 'down');
}

export async function getAssets(deps: AppDeps, userId: number): Promise<AssetsData> {
  const [accounts, price] = await Promise.all([readUserAccounts(deps.db, userId), nadiPrice(deps.db, deps.marketPrice)]);
  let total = 0n;
  let destroyQuota = 0n;
  const list: AssetsData['accounts'] = [];
  for (const a of accounts) {
    if (a.kind === 'destroy_quota') {
      destroyQuota = a.available;
      continue;
    }
    const value = valueInUsdt(a.asset, a.available + a.frozen, price.price);
    total += value;
    list.push({ kind: a.kind, asset: a.asset, available: toDecimalString(a.available), frozen: toDecimalString(a.frozen), value_usdt: toDecimalString(value) });
  }
  return {
    accounts: list,
    total_value_usdt: toDecimalString(total),
    nadi_price_usdt: toDecimalString(price.price),
    price_source: price.source,
    destroy_quota: toDecimalString(destroyQuota),
  };
}

/** What a user can spend from one account now (a withdrawal shows it before the request). */
export async function availableOf(db: Db, userId: number, kind: UserAccountKind, asset: Asset): Promise<bigint> {
  const accounts = await readUserAccounts(db, userId);
  return accounts.find((a) => a.kind === kind && a.asset === asset)?.available ?? 0n;
}

export interface TransferInput {
  asset: Asset;
  from: 'fund' | 'trade';
  to: 'fund' | 'trade';
  amount: bigint;
}

/** The user's sockets hear of a balance change once its flow has committed (a replay too: it is cheap and harmless). */
function publishBalance(deps: AppDeps, userId: number): void {
  deps.events.publish({ type: 'balance', userIds: [userId] });
}

/** Moves an amount between the user's fund and trade accounts: one transfer, nothing else. */
export async function transferBetweenAccounts(deps: AppDeps, userId: number, key: string, input: TransferInput): Promise<TransferData> {
  if (input.from === input.to) throw new AppError('SAME_ACCOUNT');
  const outcome = await runFlow(deps.db, {
    idempotencyKey: key,
    userId,
    type: 'balance_transfer',
    params: input,
    legs: [transfer('balance_transfer', userAccount(userId, input.from, input.asset), userAccount(userId, input.to, input.asset), input.amount)],
    result: ({ flowId, createdAt }): TransferData => ({
      id: flowId,
      asset: input.asset,
      amount: toDecimalString(input.amount),
      from: input.from,
      to: input.to,
      created_at: createdAt.toISOString(),
    }),
  });
  publishBalance(deps, userId);
  return outcome.result;
}

export interface QuoteMath {
  price: bigint;
  fee: bigint;
  receive: bigint;
  feeAsset: Asset;
}

/** Gross amount at the price rounded down, then the fee rounded up: the user never gets more than the price gives. */
export function quoteMath(from: Asset, amount: bigint, price: bigint, feeBps: bigint): QuoteMath {
  const gross = from === 'NADI' ? mulDiv(amount, price, one, 'down') : mulDiv(amount, one, price, 'down');
  const fee = feeOf(gross, feeBps);
  return { price, fee, receive: gross - fee, feeAsset: from === 'NADI' ? 'USDT' : 'NADI' };
}

export async function createQuote(deps: AppDeps, userId: number, input: { from_asset: Asset; to_asset: Asset; amount: bigint }): Promise<ExchangeQuoteData> {
  if (input.from_asset === input.to_asset) throw new AppError('SAME_ACCOUNT');
  const [price, feeBps] = await Promise.all([nadiPrice(deps.db, deps.marketPrice), exchangeFeeBps(deps.db)]);
  const math = quoteMath(input.from_asset, input.amount, price.price, feeBps);
  if (math.receive <= 0n) throw new AppError('AMOUNT_TOO_SMALL');
  const id = randomUUID();
  const expiresAt = new Date(deps.now().getTime() + quoteTtlMs);
  await deps.db.insert(exchangeQuotes).values({
    id,
    userId,
    fromAsset: input.from_asset,
    toAsset: input.to_asset,
    amount: input.amount,
    price: math.price,
    fee: math.fee,
    receive: math.receive,
    expiresAt,
  });
  return {
    quote_id: id,
    from_asset: input.from_asset,
    to_asset: input.to_asset,
    amount: toDecimalString(input.amount),
    price: toDecimalString(math.price),
    fee: toDecimalString(math.fee),
    fee_asset: math.feeAsset,
    receive: toDecimalString(math.receive),
    expires_at: expiresAt.toISOString(),
  };
}

/** Marks the quote used, once, if it is the caller's, unexpired and for this amount. */
async function consumeQuote(tx: Tx, deps: AppDeps, userId: number, quoteId: string, amount: bigint) {
  const rows = await tx
    .update(exchangeQuotes)
    .set({ usedAt: deps.now() })
    .where(and(eq(exchangeQuotes.id, quoteId), eq(exchangeQuotes.userId, userId), isNull(exchangeQuotes.usedAt), gt(exchangeQuotes.expiresAt, deps.now())))
    .returning();
  const quote = rows[0];
  if (!quote) throw new AppError('QUOTE_EXPIRED');
  if (quote.amount !== amount) throw new AppError('QUOTE_MISMATCH');
  return quote;
}

export async function confirmQuote(deps: AppDeps, userId: number, key: string, input: { quote_id: string; amount: bigint }) {
  const outcome = await runFlow(deps.db, {
    idempotencyKey: key,
    userId,
    type: 'exchange',
    params: input,
    legs: async (tx) => {
      const q = await consumeQuote(tx, deps, userId, input.quote_id, input.amount);
      const from = q.fromAsset as Asset;
      const to = q.toAsset as Asset;
      const memo = { quote_id: q.id, price: q.price.toString() };
      return [
        transfer('exchange', userAccount(userId, 'fund', from), systemAccount('treasury', from), q.amount, memo),
        transfer('exchange', systemAccount('treasury', to), userAccount(userId, 'fund', to), q.receive, memo),
        ...(q.fee > 0n ? [fee('exchange_fee', systemAccount('treasury', to), q.fee, memo)] : []),
      ];
    },
    result: ({ flowId, createdAt }) => ({ id: flowId, created_at: createdAt.toISOString() }),
  });
  publishBalance(deps, userId);
  const quote = (await deps.db.select().from(exchangeQuotes).where(eq(exchangeQuotes.id, input.quote_id)).limit(1))[0];
  if (!quote) throw new AppError('QUOTE_EXPIRED');
  return {
    id: outcome.result.id,
    from_asset: quote.fromAsset as Asset,
    to_asset: quote.toAsset as Asset,
    amount: toDecimalString(quote.amount),
    receive: toDecimalString(quote.receive),
    fee: toDecimalString(quote.fee),
    created_at: outcome.result.created_at,
  };
}

export const demoGrant = { NADI: 10_000n * one, USDT: 1_000n * one } as const;

/** Development only: a new account starts with demo funds, booked as a data adjustment from the treasury. */
export async function grantDemoFunds(tx: Tx, userId: number): Promise<void> {
  await postFlow(tx, {
    idempotencyKey: `demo-grant:${userId}`,
    userId,
    type: 'data_adjustment',
    params: { userId },
    legs: (['NADI', 'USDT'] as const).map((asset) =>
      transfer('data_adjustment', systemAccount('treasury', asset), userAccount(userId, 'fund', asset), demoGrant[asset], { reason: 'demo' }),
    ),
    result: () => null,
  });
}
