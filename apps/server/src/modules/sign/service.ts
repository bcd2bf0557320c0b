// Daily sign-in (docs/team.md "Daily sign-in"): one sign-in per user per day (the mining epoch: a UTC
// day in production), the cycle day derived from the previous sign-in (no counter), the award of the
// parameters in force that day, paid at once from the sign-in pool and never more than it holds.
import type { PageQuery } from '@nadi/api/common';
import type { SignConfig, SignRecord, signDayStatuses, signOperateData } from '@nadi/api/sign';
import { cycleDayOf, signInAwardOf, signInAwards } from '@nadi/economy/team';
import { minBigint, toDecimalString } from '@nadi/money/money';
import type { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/app-error.ts';
import { lockAvailable, postFlow, systemAccount, transfer, userAccount } from '../ledger/index.ts';
import { miningNow } from '../mining/index.ts';
import { insertSignIn, listSignIns, readRunEnd, readTotalAwarded, recordPayment, type RunEnd, type SignInRow } from './repo.ts';

export type SignDeps = Pick<AppDeps, 'db' | 'settings' | 'now' | 'events'>;
type SignOperateData = z.infer<typeof signOperateData>;
type SignDayStatus = (typeof signDayStatuses)[number];

export const signinPool = systemAccount('signin_pool', 'NADI');

/** The ledger key of a day's award: a second payment for the same user and day cannot be posted. */
export function signInFlowKey(userId: number, day: number): string {
  return `sign_in:${userId}:${day}`;
}

export function signRecordOf(row: SignInRow): SignRecord {
  return { day: row.day, cycle_day: row.cycleDay, award: toDecimalString(row.award), created_at: row.createdAt.toISOString() };
}

/**
 * The cycle as a calendar: the days before today's position signed, today's position 'today' (or
 * 'signed' once signed), the rest upcoming. Today's position is where the current run stands, so a
 * run that completed day 7 yesterday shows a fresh cycle.
 */
export function calendarOf(awards: readonly bigint[], cycleDay: number, isSignedToday: boolean): SignConfig['cycle'] {
  return awards.map((award, i) => {
    const day = i + 1;
    const status: SignDayStatus = day < cycleDay || (day === cycleDay && isSignedToday) ? 'signed' : day === cycleDay ? 'today' : 'upcoming';
    return { cycle_day: day, award: toDecimalString(award), status };
  });
}

/** Consecutive days signed up to today, or up to yesterday while today is not signed yet; 0 after a missed day. */
function streakOf(last: RunEnd | null, today: number): number {
  return last !== null && last.day >= today - 1 ? last.streak : 0;
}

/** sign/config: two reads of the user's rows (the latest with its run, the total) besides the clock. */
export async function getSignConfig(deps: SignDeps, userId: number): Promise<SignConfig> {
  const m = await miningNow(deps);
  const today = m.epoch;
  const [last, total] = await Promise.all([readRunEnd(deps.db, userId, today), readTotalAwarded(deps.db, userId)]);
  const signedToday = last !== null && last.day === today ? last : null;
  const cycleDay = signedToday ? signedToday.cycleDay : cycleDayOf(today, last);
  return {
    day: today,
    day_ends_at: m.clock.endOf(today).toISOString(),
    cycle: calendarOf(signInAwards(m.params), cycleDay, signedToday !== null),
    signed_today: signedToday !== null,
    cycle_day: cycleDay,
    award: toDecimalString(signedToday ? signedToday.award : signInAwardOf(cycleDay, m.params)),
    streak: streakOf(last, today),
    total_awarded: toDecimalString(total),
  };
}

/**
 * sign/operate, in one transaction: the previous sign-in gives the cycle day, the day's row is
 * inserted (the primary key lets one request per user and day through: the others get
 * SIGN_IN_ALREADY and pay nothing), then the pool is locked and the award paid in one flow, capped by
 * what the pool holds (nothing held: no flow), and the row records what was paid and by which flow.
 * The row is written before the pool is locked, so a user's repeated requests wait on their own row
 * rather than queueing on the pool every sign-in locks.
 */
export async function signInToday(deps: SignDeps, userId: number): Promise<SignOperateData> {
  const m = await miningNow(deps);
  const day = m.epoch;
  const signed = await deps.db.transaction(async (tx) => {
    const previous = await readRunEnd(tx, userId, day - 1);
    const cycleDay = cycleDayOf(day, previous);
    const wanted = signInAwardOf(cycleDay, m.params);
    if (!(await insertSignIn(tx, userId, { day, cycleDay, award: wanted, createdAt: m.now }))) throw new AppError('SIGN_IN_ALREADY');
    const held = await lockAvailable(tx, signinPool);
    const paid = minBigint(wanted, held > 0n ? held : 0n);
    let flowId: number | null = null;
    if (paid > 0n) {
      ({ flowId } = await postFlow(tx, {
        idempotencyKey: signInFlowKey(userId, day),
        userId,
        type: 'sign_in_award',
        params: { day, cycle_day: cycleDay, award: paid.toString() },
        legs: [transfer('sign_in_award', signinPool, userAccount(userId, 'fund', 'NADI'), paid, { day: String(day), cycle_day: String(cycleDay) })],
        result: () => null,
      }));
    }
    await recordPayment(tx, userId, day, paid, flowId);
    const streak = previous !== null && previous.day === day - 1 ? previous.streak + 1 : 1;
    return { row: { day, cycleDay, award: paid, createdAt: m.now }, streak };
  });
  if (signed.row.award > 0n) deps.events.publish({ type: 'balance', userIds: [userId] });
  return { ...signRecordOf(signed.row), streak: signed.streak };
}

/** sign/list: the user's sign-ins, newest first. */
export async function getSignList(deps: SignDeps, userId: number, query: PageQuery) {
  const { rows, total } = await listSignIns(deps.db, userId, (query.page - 1) * query.page_size, query.page_size);
  return { list: rows.map(signRecordOf), total, page: query.page, page_size: query.page_size };
}
