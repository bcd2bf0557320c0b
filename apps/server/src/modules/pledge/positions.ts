// My savings positions (financial/records), their release records (financial/releases) and redeeming
// a position without a term (financial/redeem). Every read and change names the owner: another
// user's position answers NOT_FOUND, as a missing one does.
import { toDecimalString } from '@nadi/money/money';
import type { PageQuery } from '@nadi/api/common';
import type { PledgePosition } from '@nadi/api/pledge';
import { AppError } from '../../lib/app-error.ts';
import { flowLegs, readAvailable, runFlow, transfer, userAccount } from '../ledger/index.ts';
import { changePower, endPledgeMiner } from '../mining/index.ts';
import { pledgedAccount } from './join.ts';
import { pledgeTime, type PledgeDeps } from './products.ts';
import { findOwnPosition, listPositions, listReleases, markRedeemed, releaseCap, type PositionRow } from './repo.ts';
import { positionView, releaseView } from './views.ts';

export async function getPositions(deps: PledgeDeps, userId: number, query: PageQuery & { status?: 'active' | 'redeemed' | undefined }) {
  const [time, { rows, total }] = await Promise.all([
    pledgeTime(deps),
    listPositions(deps.db, userId, query.status, (query.page - 1) * query.page_size, query.page_size),
  ]);
  return { list: rows.map((r) => positionView(r, time)), total, page: query.page, page_size: query.page_size };
}

export async function getReleases(deps: PledgeDeps, userId: number, query: PageQuery) {
  const [time, { rows, total }] = await Promise.all([pledgeTime(deps), listReleases(deps.db, userId, (query.page - 1) * query.page_size, query.page_size)]);
  return { list: rows.map((r) => releaseView(r, time)), total, page: query.page, page_size: query.page_size };
}

/** Raised inside the redeem's transaction when the position is no longer active: rolls the flow back. */
class AlreadyRedeemed extends Error {}

/**
 * Redeems a position without a term (flexible, joint, node: nothing else ever gives their principal
 * back) to the fund account: the flow `pledged → fund` (record redeem_savings) first, then the
 * position (active → redeemed, only once), the product's total and the miner's power (power log
 * `withdraw`). Its flow key is the position's, so a second redeem posts nothing and answers the
 * redeemed position. A locked position is released by the settlement: PLEDGE_NOT_REDEEMABLE.
 */
export async function redeemPosition(deps: PledgeDeps, userId: number, id: number): Promise<{ position: PledgePosition; balance: string }> {
  const position = await findOwnPosition(deps.db, userId, id);
  if (!position) throw new AppError('NOT_FOUND');
  if (position.product.termEpochs > 0) throw new AppError('PLEDGE_NOT_REDEEMABLE');
  if (position.status === 'active') {
    try {
      await runFlow(deps.db, {
        idempotencyKey: `pledge_redeem:${position.id}`,
        userId,
        type: 'redeem_savings',
        params: { position: position.id },
        legs: [transfer('redeem_savings', pledgedAccount, userAccount(userId, 'fund', 'NADI'), position.amount, { position: String(position.id) })],
        after: async (tx, ctx) => {
          const time = await pledgeTime({ ...deps, db: tx });
          if (!(await markRedeemed(tx, position.id, userId, ctx.flowId, time.now))) throw new AlreadyRedeemed();
          await releaseCap(tx, position.product.id, position.amount);
          if (position.minerId === null) return;
          const power = await endPledgeMiner(tx, position.minerId);
          if (power > 0n) await changePower(tx, { userId, type: 'withdraw', delta: -power, minerId: position.minerId, epoch: time.epoch, now: time.now });
        },
        result: () => null,
      });
      deps.events.publish({ type: 'balance', userIds: [userId] });
    } catch (error) {
      if (!(error instanceof AlreadyRedeemed)) throw error;
    }
  }
  return redeemAnswer(deps, userId, id);
}

/** The position as it is now and the fund balance right after its redeem (the same answer however often asked). */
async function redeemAnswer(deps: PledgeDeps, userId: number, id: number) {
  const [position, time] = await Promise.all([findOwnPosition(deps.db, userId, id), pledgeTime(deps)]);
  if (!position) throw new AppError('NOT_FOUND');
  return { position: positionView(position, time), balance: toDecimalString(await fundAfterRelease(deps, position)) };
}

async function fundAfterRelease(deps: PledgeDeps, position: PositionRow): Promise<bigint> {
  const legs = position.releaseFlowId === null ? [] : await flowLegs(deps.db, position.releaseFlowId);
  const leg = legs.find((l) => l.credit.kind === 'fund' && l.credit.userId === position.userId);
  return leg ? leg.creditAvailableAfter : readAvailable(deps.db, userAccount(position.userId, 'fund', 'NADI'));
}
