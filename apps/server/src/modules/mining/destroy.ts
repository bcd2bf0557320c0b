// Destroy mining (docs/economy.md, "Destroy"): NADI from the fund account is burned at the reference
// price for a destroy miner (power 2 P per USDT, an earnings budget of 3 × the value) and the same
// USDT value of destroy quota. One flow, one transaction with the miner and its power log row.
import { destroyBudgetOf, destroyPowerOf, powerText, usdtValueOf } from '@nadi/economy/economy';
import { toDecimalString } from '@nadi/money/money';
import type { DestroyPreview, MinerItem } from '@nadi/api/mining';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { AppError } from '../../lib/app-error.ts';
import { burn, postFlow, systemAccount, transfer, userAccount } from '../ledger/index.ts';
import { changePower } from './power.ts';
import { quoteReferencePrice, type ReferencePrice } from './reference-price.ts';
import { findMinerByFlow, readAvailable, readFlowLegs } from './repo.ts';
import { keyedTransaction, minerItem, miningNow, type MiningAppDeps, type MiningNow } from './service.ts';

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
 * account holds INSUFFICIENT_BALANCE.
 */
async function quoteDestroy(db: Db, m: MiningNow, userId: number, amount: bigint): Promise<DestroyQuote> {
  const [price, available] = await Promise.all([quoteReferencePrice(db, m.now, m.params), readAvailable(db, userId, 'fund', 'NADI')]);
  const valueUsdt = usdtValueOf(amount, price.price);
  const power = destroyPowerOf(valueUsdt, m.params);
  if (valueUsdt < m.params.destroyMinUsdt || power <= 0n) {
    throw new AppError('DESTROY_BELOW_MIN', undefined, { params: { amount: toDecimalString(m.params.destroyMinUsdt) } });
  }
  if (amount > available) throw new AppError('INSUFFICIENT_BALANCE');
  return { amount, price, valueUsdt, power, budgetUsdt: destroyBudgetOf(valueUsdt, m.params), available };
}

export async function previewDestroy(deps: MiningAppDeps, userId: number, amount: bigint): Promise<DestroyPreview> {
  const m = await miningNow(deps);
  const q = await quoteDestroy(deps.db, m, userId, amount);
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
  const params = { amount: input.amount, price: input.price };
  const { flowId } = await keyedTransaction(deps.db, key, params, async (paramsHash) => {
    const m = await miningNow(deps);
    const q = await quoteDestroy(deps.db, m, userId, input.amount);
    if (q.price.price !== input.price) throw new AppError('QUOTE_EXPIRED');
    await deps.db.transaction(async (tx) => {
      const memo = { price: q.price.price.toString(), value_usdt: q.valueUsdt.toString() };
      const outcome = await postFlow(
        tx,
        {
          idempotencyKey: key,
          userId,
          type: 'destroy_mining',
          params,
          legs: [
            burn('destroy_mining', userAccount(userId, 'fund', 'NADI'), q.amount, memo),
            transfer('destroy_mining', systemAccount('treasury', 'USDT'), userAccount(userId, 'destroy_quota', 'USDT'), q.valueUsdt, memo),
          ],
          result: () => null,
        },
        paramsHash,
      );
      const rows = rowsOf<{ id: string }>(
        await tx.execute(sql`
          insert into miners (user_id, kind, status, base_power, gift_power, pay_method, destroy_nadi, destroy_price, destroy_usdt,
                              budget_usdt, released_usdt, flow_id, starts_epoch, created_at)
          values (${userId}, 'destroy', 3, ${q.power.toString()}::bigint, 0, 'balance', ${q.amount.toString()}::numeric, ${q.price.price.toString()}::numeric,
                  ${q.valueUsdt.toString()}::numeric, ${q.budgetUsdt.toString()}::numeric, 0, ${outcome.flowId}, ${m.epoch}, ${m.now})
          returning id::text as id`),
      );
      const minerId = Number(rows[0]?.id);
      await changePower(tx, { userId, type: 'destroy', delta: q.power, minerId, epoch: m.epoch, now: m.now });
    });
  });
  deps.events.publish({ type: 'balance', userIds: [userId] });
  return destroyResultOf(deps, flowId);
}

/** The answer of a destroy, rebuilt from its flow (miner as created, balances after the flow), so a repeat answers the same. */
async function destroyResultOf(deps: MiningAppDeps, flowId: number): Promise<DestroyResult> {
  const [miner, legs, m] = await Promise.all([findMinerByFlow(deps.db, flowId), readFlowLegs(deps.db, flowId), miningNow(deps)]);
  const burned = legs.find((l) => l.debitKind === 'fund');
  const quota = legs.find((l) => l.creditKind === 'destroy_quota');
  if (!miner || !burned || !quota) throw new Error(`destroy flow ${flowId} has no miner or legs`);
  const asCreated = { ...miner, status: 3 as const, releasedUsdt: 0n };
  return {
    miner: minerItem(asCreated, m),
    balance: toDecimalString(burned.debitAvailableAfter),
    destroy_quota: toDecimalString(quota.creditAvailableAfter),
  };
}
