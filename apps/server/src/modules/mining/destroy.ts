// Destroy mining (docs/economy.md, "Destroy"): NADI from the fund account is burned at the reference
// price for a destroy miner (power 2 P per USDT, an earnings budget of 3 × the value) and the same
// USDT value of destroy quota. One flow, one transaction with the miner and its power log row.
// Paid on chain instead, the NADI is burned by PaymentGateway.payAndBurn from the wallet: a payment
// order of kind 'destroy' whose fulfilment (in the payment watcher's transaction) does the rest.
import { destroyBudgetOf, destroyPowerOf, powerText, usdtValueOf } from '@nadi/economy/economy';
import { toDecimalString } from '@nadi/money/money';
import type { DestroyPayMethod, DestroyPreview, MinerItem } from '@nadi/api/mining';
import type { PaymentOrder } from '@nadi/api/onchain';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { AppError } from '../../lib/app-error.ts';
import { burn, flowLegs, postFlow, readAvailable, runFlow, systemAccount, transfer, userAccount } from '../ledger/index.ts';
import { createPaymentOrder, type PaymentOrderRow } from '../onchain/index.ts';
import { addPerformance } from '../team/index.ts';
import { changePower } from './power.ts';
import { quoteReferencePrice, type ReferencePrice } from './reference-price.ts';
import { findMinerByFlow, insertDestroyOrder, readDestroyOrder } from './repo.ts';
import { minerItem, miningNow, type MiningAppDeps, type MiningNow } from './service.ts';

interface DestroyQuote {
  amount: bigint;
  price: ReferencePrice;
  valueUsdt: bigint;
  power: bigint;
  budgetUsdt: bigint;
  available: bigint;
}

/**
 * Values an amount at the reference price quotes use now and checks it as the destroy will: a value
 * below the minimum (or too small to give any power) is DESTROY_BELOW_MIN, more than the fund
 * account holds INSUFFICIENT_BALANCE (unless the wallet pays: `checkBalance` false).
 */
async function quoteDestroy(db: Db | Tx, m: MiningNow, userId: number, amount: bigint, checkBalance = true): Promise<DestroyQuote> {
  const [price, available] = await Promise.all([quoteReferencePrice(db, m.now, m.params), readAvailable(db, userAccount(userId, 'fund', 'NADI'))]);
  const valueUsdt = usdtValueOf(amount, price.price);
  const power = destroyPowerOf(valueUsdt, m.params);
  if (valueUsdt < m.params.destroyMinUsdt || power <= 0n) {
    throw new AppError('DESTROY_BELOW_MIN', undefined, { params: { amount: toDecimalString(m.params.destroyMinUsdt) } });
  }
  if (checkBalance && amount > available) throw new AppError('INSUFFICIENT_BALANCE');
  return { amount, price, valueUsdt, power, budgetUsdt: destroyBudgetOf(valueUsdt, m.params), available };
}

interface NewDestroyMiner {
  userId: number;
  payMethod: 'balance' | 'chain';
  amount: bigint;
  price: bigint;
  valueUsdt: bigint;
  power: bigint;
  budgetUsdt: bigint;
  flowId: number;
}

/** Inserts a running destroy miner and logs its power (after its flow: the settlement's lock order). */
async function insertDestroyMiner(tx: Tx, m: Pick<MiningNow, 'now' | 'epoch'>, miner: NewDestroyMiner): Promise<number> {
  const rows = rowsOf<{ id: string }>(
    await tx.execute(sql`
      insert into miners (user_id, kind, status, base_power, gift_power, pay_method, destroy_nadi, destroy_price, destroy_usdt,
                          budget_usdt, released_usdt, flow_id, starts_epoch, created_at)
      values (${miner.userId}, 'destroy', 3, ${miner.power.toString()}::bigint, 0, ${miner.payMethod}, ${miner.amount.toString()}::numeric,
              ${miner.price.toString()}::numeric, ${miner.valueUsdt.toString()}::numeric, ${miner.budgetUsdt.toString()}::numeric, 0,
              ${miner.flowId}, ${m.epoch}, ${m.now})
      returning id::text as id`),
  );
  const minerId = Number(rows[0]?.id);
  await changePower(tx, { userId: miner.userId, type: 'destroy', delta: miner.power, minerId, epoch: m.epoch, now: m.now });
  return minerId;
}

/** A destroy counts toward performance (docs/economy.md, "Team and rewards") at its USDT value, once per flow. */
function destroyPerformance(userId: number, flowId: number, valueUsdt: bigint, at: Date) {
  return { userId, kind: 'destroy' as const, ref: `destroy:flow:${flowId}`, usdt: valueUsdt, at };
}

function quotaLeg(userId: number, valueUsdt: bigint, memo: Record<string, string>) {
  return transfer('destroy_mining', systemAccount('treasury', 'USDT'), userAccount(userId, 'destroy_quota', 'USDT'), valueUsdt, memo);
}

export async function previewDestroy(deps: MiningAppDeps, userId: number, amount: bigint, payMethod: DestroyPayMethod = 'balance'): Promise<DestroyPreview> {
  const m = await miningNow(deps);
  const q = await quoteDestroy(deps.db, m, userId, amount, payMethod === 'balance');
  return {
    amount: toDecimalString(q.amount),
    price: toDecimalString(q.price.price),
    price_source: q.price.source,
    value_usdt: toDecimalString(q.valueUsdt),
    power: powerText(q.power),
    budget_usdt: toDecimalString(q.budgetUsdt),
    min_usdt: toDecimalString(m.params.destroyMinUsdt),
    available: toDecimalString(q.available),
  };
}

export interface DestroyResult {
  miner: MinerItem;
  balance: string;
  destroy_quota: string;
}

/**
 * Destroys `amount` at `price`, which must be the reference price quotes use now (else
 * QUOTE_EXPIRED: preview again). A repeat of the Idempotency-Key answers the first result.
 */
export async function destroyForMiner(deps: MiningAppDeps, userId: number, key: string, input: { amount: bigint; price: bigint }): Promise<DestroyResult> {
  let quoted: { m: MiningNow; q: DestroyQuote } | null = null;
  // A repeated key answers the first result even when the price has moved since (runFlow replays
  // the flow whatever the legs refuse).
  const { flowId } = await runFlow(deps.db, {
    idempotencyKey: key,
    userId,
    type: 'destroy_mining',
    params: { amount: input.amount, price: input.price },
    legs: async (tx) => {
      const m = await miningNow({ ...deps, db: tx });
      const q = await quoteDestroy(tx, m, userId, input.amount);
      if (q.price.price !== input.price) throw new AppError('QUOTE_EXPIRED');
      quoted = { m, q };
      const memo = { price: q.price.price.toString(), value_usdt: q.valueUsdt.toString() };
      return [burn('destroy_mining', userAccount(userId, 'fund', 'NADI'), q.amount, memo), quotaLeg(userId, q.valueUsdt, memo)];
    },
    after: async (tx, { flowId: id }) => {
      if (!quoted) throw new Error('destroy posted without a quote');
      const { m, q } = quoted;
      const miner = {
        userId,
        payMethod: 'balance' as const,
        amount: q.amount,
        price: q.price.price,
        valueUsdt: q.valueUsdt,
        power: q.power,
        budgetUsdt: q.budgetUsdt,
      };
      await insertDestroyMiner(tx, m, { ...miner, flowId: id });
      await addPerformance(tx, destroyPerformance(userId, id, q.valueUsdt, m.now));
    },
    result: () => null,
  });
  deps.events.publish({ type: 'balance', userIds: [userId] });
  return destroyResultOf(deps, flowId);
}

/** The answer of a destroy, rebuilt from its flow (miner as created, balances after the flow), so a repeat answers the same. */
async function destroyResultOf(deps: MiningAppDeps, flowId: number): Promise<DestroyResult> {
  const [miner, legs, m] = await Promise.all([findMinerByFlow(deps.db, flowId), flowLegs(deps.db, flowId), miningNow(deps)]);
  const burned = legs.find((l) => l.debit.kind === 'fund');
  const quota = legs.find((l) => l.credit.kind === 'destroy_quota');
  if (!miner || !burned || !quota) throw new Error(`destroy flow ${flowId} has no miner or legs`);
  const asCreated = { ...miner, status: 3 as const, releasedUsdt: 0n };
  return {
    miner: minerItem(asCreated, m),
    balance: toDecimalString(burned.debitAvailableAfter),
    destroy_quota: toDecimalString(quota.creditAvailableAfter),
  };
}

/**
 * A destroy paid from the wallet: validated like destroyForMiner (minimum at the price, QUOTE_EXPIRED
 * when the price moved) but not against the fund account. Answers a payment order of kind 'destroy'
 * for `amount` NADI, paid with PaymentGateway.payAndBurn; its price and USDT value are kept with it.
 */
export async function createDestroyOrder(deps: MiningAppDeps, userId: number, input: { amount: bigint; price: bigint }): Promise<PaymentOrder> {
  const m = await miningNow(deps);
  const q = await quoteDestroy(deps.db, m, userId, input.amount, false);
  if (q.price.price !== input.price) throw new AppError('QUOTE_EXPIRED');
  return createPaymentOrder(deps, userId, { kind: 'destroy', asset: 'NADI', amount: q.amount }, (tx, order) =>
    insertDestroyOrder(tx, order.id, { price: q.price.price, valueUsdt: q.valueUsdt }),
  );
}

/**
 * Delivers a paid destroy order inside the payment watcher's transaction (which fulfils the order
 * once): destroy quota for its USDT value (the order is the flow's idempotency key), then the miner
 * with pay_method 'chain' and its power log row. No NADI moves in the ledger: it went from the
 * wallet to the burn address on chain and never was in the ledger. Power and budget are those of
 * the stored value under the parameters in force now.
 */
export async function fulfilDestroyOrder(deps: Pick<MiningAppDeps, 'settings' | 'now'>, tx: Tx, order: PaymentOrderRow): Promise<void> {
  const stored = await readDestroyOrder(tx, order.id);
  if (!stored) throw new Error(`destroy order ${order.id} has no destroy_orders row`);
  const m = await miningNow({ ...deps, db: tx });
  const params = { order: order.id };
  const memo = { price: stored.price.toString(), value_usdt: stored.valueUsdt.toString(), order: String(order.id) };
  const outcome = await postFlow(tx, {
    idempotencyKey: `payment_order:${order.id}`,
    userId: order.userId,
    type: 'destroy_mining',
    params,
    legs: [quotaLeg(order.userId, stored.valueUsdt, memo)],
    result: () => null,
  });
  await insertDestroyMiner(tx, m, {
    userId: order.userId,
    payMethod: 'chain',
    amount: order.amount,
    price: stored.price,
    valueUsdt: stored.valueUsdt,
    power: destroyPowerOf(stored.valueUsdt, m.params),
    budgetUsdt: destroyBudgetOf(stored.valueUsdt, m.params),
    flowId: outcome.flowId,
  });
  await addPerformance(tx, destroyPerformance(order.userId, outcome.flowId, stored.valueUsdt, m.now));
}
