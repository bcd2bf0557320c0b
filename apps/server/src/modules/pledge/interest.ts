// Savings interest (financial/receiveInfo, financial/receive): the settlement accrues it each epoch
// into `pledge_interest.claimable`, paying the savings pool into the system account
// `savings_interest`; claiming moves all of it to the fund account at once (record savings_income).
import { toDecimalString } from '@nadi/money/money';
import type { ReceiveInfo } from '@nadi/api/pledge';
import { AppError } from '../../lib/app-error.ts';
import { flowLegs, runFlow, systemAccount, transfer, userAccount } from '../ledger/index.ts';
import type { PledgeDeps } from './products.ts';
import { ppmPerUnit, ratesOf } from './rates.ts';
import { latestInterestLines, markInterestClaimed, readInterest, readLastSettledPledgeEpoch } from './repo.ts';

/** receiveInfo shows the newest lines only: the full history is the positions' interest totals. */
export const interestLinesMax = 20;

const savingsInterest = systemAccount('savings_interest', 'NADI');

export async function getReceiveInfo(deps: PledgeDeps, userId: number): Promise<ReceiveInfo> {
  const [interest, lines, lastSettled] = await Promise.all([
    readInterest(deps.db, userId),
    latestInterestLines(deps.db, userId, interestLinesMax),
    readLastSettledPledgeEpoch(deps.db),
  ]);
  return {
    claimable: toDecimalString(interest.claimable),
    claimed_total: toDecimalString(interest.claimedTotal),
    lines: lines.map((l) => ({
      epoch: l.epoch,
      position_id: l.positionId,
      name: l.name,
      kind: l.kind,
      term_epochs: l.termEpochs,
      amount: toDecimalString(l.amount),
      principal: toDecimalString(l.principal),
      // A joint position has no rate of its own: its line shows the share of the budget it got.
      day_rate: ratesOf(l.kind === 'joint' ? (l.amount * ppmPerUnit) / l.principal : l.dayRatePpm).day_rate,
    })),
    last_settled_epoch: lastSettled,
  };
}

/**
 * Claims everything claimable: the flow savings_interest → fund first (the settlement locks ledger
 * accounts before it writes pledge_interest, so every transaction touching both does the same), then
 * the row (claimable → claimed_total) with a conditional update, so parallel claims pay once: the
 * later one finds nothing left and rolls back. Nothing claimable: NOTHING_TO_CLAIM.
 */
export async function claimInterest(deps: PledgeDeps, userId: number, key: string): Promise<{ amount: string; balance: string }> {
  let claimable = 0n;
  let flowId: number;
  try {
    ({ flowId } = await runFlow(deps.db, {
      idempotencyKey: key,
      userId,
      type: 'savings_income',
      params: { action: 'claim' },
      legs: async (tx) => {
        claimable = (await readInterest(tx, userId)).claimable;
        if (claimable <= 0n) throw new AppError('NOTHING_TO_CLAIM');
        return [transfer('savings_income', savingsInterest, userAccount(userId, 'fund', 'NADI'), claimable)];
      },
      after: async (tx) => {
        if (!(await markInterestClaimed(tx, userId, claimable, deps.now()))) throw new AppError('NOTHING_TO_CLAIM');
      },
      result: () => null,
    }));
  } catch (error) {
    // The account holds every user's unclaimed interest, so it can only be short of this claim when
    // a parallel claim of the same interest took it first; anything else is a broken ledger: loud.
    const isTaken = error instanceof AppError && error.reason === 'INSUFFICIENT_BALANCE' && (await readInterest(deps.db, userId)).claimable < claimable;
    if (isTaken) throw new AppError('NOTHING_TO_CLAIM');
    throw error;
  }
  deps.events.publish({ type: 'balance', userIds: [userId] });
  const leg = (await flowLegs(deps.db, flowId))[0];
  if (!leg) throw new Error(`savings claim flow ${flowId} has no transfer`);
  return { amount: toDecimalString(leg.amount), balance: toDecimalString(leg.creditAvailableAfter) };
}
