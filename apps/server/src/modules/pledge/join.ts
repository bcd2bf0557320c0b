// Joining a savings product (financial/join, docs/nodes-and-savings.md "Savings"): ONE ledger flow
// moves the NADI from the fund account to the system account `pledged` (record balance_savings);
// in the same transaction the product's total grows (one conditional update: never beyond its cap),
// the position is written with its pledge miner, and the power log says `pledge`.
import { toDecimalString } from '@nadi/money/money';
import type { PledgePosition } from '@nadi/api/pledge';
import type { Tx } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { availableAfterFlow, readAvailable, runFlow, systemAccount, transfer, userAccount } from '../ledger/index.ts';
import { changePower, insertPledgeMiner } from '../mining/index.ts';
import { pledgePowerOf, productStatusOf } from './rates.ts';
import { holdsNode } from '../node/index.ts';
import { findPositionByFlow, findProduct, insertPosition, takeCap, type ProductRow } from './repo.ts';
import { pledgeTime, type PledgeDeps } from './products.ts';
import { positionView, type PledgeTime } from './views.ts';

export const pledgedAccount = systemAccount('pledged', 'NADI');

export interface JoinInput {
  product_id: number;
  amount: bigint;
}

function poolFull(p: ProductRow): AppError {
  const left = p.poolCap - p.total;
  return new AppError('PLEDGE_POOL_FULL', undefined, { params: { left: toDecimalString(left > 0n ? left : 0n) } });
}

async function balanceShort(db: PledgeDeps['db'] | Tx, userId: number, amount: bigint): Promise<AppError> {
  const current = await readAvailable(db, userAccount(userId, 'fund', 'NADI'));
  return new AppError('BALANCE_SHORT', undefined, { params: { current: toDecimalString(current), required: toDecimalString(amount), asset: 'NADI' } });
}

/**
 * The checks a join must pass, in the order a user fixes them: the product is open, node savings
 * need a node, the amount reaches the minimum and fits what the cap has left, the fund account
 * holds it. Reads, not locks: the cap is enforced again by takeCap, the balance by the ledger.
 */
async function checkJoin(tx: Tx, userId: number, product: ProductRow | null, amount: bigint, now: Date): Promise<ProductRow> {
  if (!product) throw new AppError('NOT_FOUND');
  const status = productStatusOf(product, now);
  if (status === 'closed' || status === 'upcoming') throw new AppError('PLEDGE_PRODUCT_CLOSED');
  if (product.kind === 'node' && !(await holdsNode(tx, userId))) throw new AppError('PLEDGE_NODE_ONLY');
  if (amount < product.minPledge) throw new AppError('PLEDGE_BELOW_MIN', undefined, { params: { amount: toDecimalString(product.minPledge) } });
  if (amount > product.poolCap - product.total) throw poolFull(product);
  if (amount > (await readAvailable(tx, userAccount(userId, 'fund', 'NADI')))) throw await balanceShort(tx, userId, amount);
  return product;
}

/**
 * Written after the flow (the ledger accounts are locked first, as the settlement locks them):
 * the cap, then the miner, the position and the power. A full pool undoes the whole join.
 */
async function writePosition(tx: Tx, userId: number, key: string, plan: { time: PledgeTime; product: ProductRow; amount: bigint }, flowId: number) {
  const { time, product, amount } = plan;
  if (!(await takeCap(tx, product.id, amount))) {
    const now = await findProduct(tx, product.id);
    throw poolFull(now ?? product);
  }
  // Interest starts with the epoch after the join (the one it is in has partly passed); a locked
  // term covers term_epochs epochs from there, released at the settlement of the last.
  const startEpoch = time.epoch + 1;
  const endEpoch = product.kind === 'locked' ? startEpoch + product.termEpochs - 1 : null;
  const power = pledgePowerOf(amount);
  const minerId = await insertPledgeMiner(tx, { userId, power, flowId, startsEpoch: time.epoch, endsEpoch: endEpoch, now: time.now });
  // Joint savings share a budget each epoch: no fixed rate to keep.
  const dayRatePpm = product.kind === 'joint' ? 0n : product.dayRatePpm;
  await insertPosition(tx, { userId, productId: product.id, amount, dayRatePpm, startEpoch, endEpoch, requestKey: key, minerId, flowId, now: time.now });
  await changePower(tx, { userId, type: 'pledge', delta: power, minerId, epoch: time.epoch, now: time.now });
}

/**
 * Pledges `amount` NADI into a product. A repeat of the Idempotency-Key answers the first join
 * (even when the product has closed since); the same key with other details is IDEMPOTENCY_CONFLICT.
 */
export async function joinPledge(deps: PledgeDeps, userId: number, key: string, input: JoinInput): Promise<{ position: PledgePosition; balance: string }> {
  const fund = userAccount(userId, 'fund', 'NADI');
  let plan: { time: PledgeTime; product: ProductRow; amount: bigint } | null = null;
  let flowId: number;
  try {
    ({ flowId } = await runFlow(deps.db, {
      idempotencyKey: key,
      userId,
      type: 'balance_savings',
      params: { product: input.product_id, amount: input.amount },
      legs: async (tx) => {
        const time = await pledgeTime({ ...deps, db: tx });
        const product = await checkJoin(tx, userId, await findProduct(tx, input.product_id), input.amount, time.now);
        plan = { time, product, amount: input.amount };
        return [transfer('balance_savings', fund, pledgedAccount, input.amount, { product: String(product.id) })];
      },
      after: async (tx, ctx) => {
        if (!plan) throw new Error('a join posted without its plan');
        await writePosition(tx, userId, key, plan, ctx.flowId);
      },
      result: () => null,
    }));
  } catch (error) {
    // The balance moved between the check and the flow: say so as the check would have.
    if (error instanceof AppError && error.reason === 'INSUFFICIENT_BALANCE') throw await balanceShort(deps.db, userId, input.amount);
    throw error;
  }
  deps.events.publish({ type: 'balance', userIds: [userId] });
  return joinAnswer(deps, flowId, fund);
}

/** The answer of a join, rebuilt from its flow (a repeat answers the same position and balance). */
async function joinAnswer(deps: PledgeDeps, flowId: number, fund: ReturnType<typeof userAccount>) {
  const [position, balance, time] = await Promise.all([findPositionByFlow(deps.db, flowId), availableAfterFlow(deps.db, flowId, fund), pledgeTime(deps)]);
  if (!position || balance === null) throw new Error(`join flow ${flowId} has no position or fund leg`);
  return { position: positionView(position, time), balance: toDecimalString(balance) };
}
