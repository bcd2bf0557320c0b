import { z } from 'zod/mini';
import { envelope, pageQuery, paged } from './common.ts';
import { route } from './route.ts';
import { amountText } from './wallet.ts';

// Daily sign-in (docs/team.md "Daily sign-in"): one sign-in per user per day (an epoch: a UTC day in
// production), a 7-day cycle of awards from the sign-in pool, a missed day restarts the cycle.

export const signDayStatuses = ['signed', 'today', 'upcoming'] as const;

export const signConfig = z.object({
  /** The current day (epoch) and when it ends (the next sign-in opens then). */
  day: z.int(),
  day_ends_at: z.string(),
  /** The cycle as a calendar: each day's award and where the user stands. */
  cycle: z.array(z.object({ cycle_day: z.int().check(z.gte(1), z.lte(7)), award: amountText, status: z.enum(signDayStatuses) })),
  signed_today: z.boolean(),
  /** Today's cycle day: signed, or what signing now would be. */
  cycle_day: z.int().check(z.gte(1), z.lte(7)),
  /** Today's award: paid, or what signing now pays. */
  award: amountText,
  /** Consecutive days signed up to today (or yesterday when not signed yet today). */
  streak: z.int().check(z.gte(0)),
  total_awarded: amountText,
});
export type SignConfig = z.infer<typeof signConfig>;

export const signRecord = z.object({
  day: z.int(),
  cycle_day: z.int().check(z.gte(1), z.lte(7)),
  /** What was paid (less than the cycle day's award only when the sign-in pool ran short). */
  award: amountText,
  created_at: z.string(),
});
export type SignRecord = z.infer<typeof signRecord>;
export const signOperateData = z.extend(signRecord, { streak: z.int().check(z.gte(1)) });

export const signRoutes = {
  config: route({
    method: 'GET',
    path: '/api/v1/sign/config',
    input: undefined,
    response: envelope(signConfig),
    auth: true,
    summary: "The sign-in cycle, today's state and the streak",
  }),
  operate: route({
    method: 'POST',
    path: '/api/v1/sign/operate',
    input: undefined,
    response: envelope(signOperateData),
    auth: true,
    summary: "Sign in for today and receive the cycle day's award (SIGN_IN_ALREADY the second time)",
    limitClass: 'money',
  }),
  list: route({
    method: 'GET',
    path: '/api/v1/sign/list',
    input: pageQuery,
    response: envelope(paged(signRecord)),
    auth: true,
    summary: 'Sign-in history, newest first',
  }),
};
