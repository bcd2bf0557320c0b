import { z } from 'zod/mini';
import { envelope, pageQuery, paged, queryInt } from './common.ts';
import { route } from './route.ts';
import { amountText } from './wallet.ts';

// The team (docs/team.md): the invite tree's figures, levels V0–V5, the rewards it pays, the direct
// referral list and the weekly ranking. Addresses of other users are always masked (0x12ab…cdef).

/** The four team rewards, as their fund record types. */
export const teamRewardKinds = ['device_direct_reward', 'share_income', 'community_power_income', 'power_level_income'] as const;
export type TeamRewardKind = (typeof teamRewardKinds)[number];

/** One level of the table in force. */
export const levelRule = z.object({
  level: z.int().check(z.gte(1), z.lte(5)),
  /** Team performance needed (USDT). */
  team_performance: amountText,
  /** Active directs needed: direct referrals who have bought something themselves. */
  active_directs: z.int(),
  /** Community power income rate, basis points (200 = 2 %). */
  rate_bps: z.int(),
});
export type LevelRuleItem = z.infer<typeof levelRule>;

export const teamInfo = z.object({
  /** V0–V5 from the figures now (the settlement uses the figures at the epoch's end). */
  level: z.int().check(z.gte(0), z.lte(5)),
  rate_bps: z.int(),
  /** The next level, what it needs and what is missing; null at V5. */
  next_level: z.nullable(
    z.object({
      level: z.int(),
      team_performance: amountText,
      active_directs: z.int(),
      team_performance_missing: amountText,
      active_directs_missing: z.int(),
      /** The lesser of the two conditions' progress, basis points (10,000 = met). */
      progress_bps: z.int().check(z.gte(0), z.lte(10_000)),
    }),
  ),
  me_performance: amountText,
  team_performance: amountText,
  /** Direct referrals, those of them who have bought something, everyone below. */
  zhi_num: z.int(),
  active_directs: z.int(),
  team_num: z.int(),
  /** Per kind: what the last settlement paid (with the purchase-time rewards of the current epoch) and everything ever. */
  rewards: z.array(z.object({ kind: z.enum(teamRewardKinds), today: amountText, total: amountText })),
  /** The numbers in force, so the screen explains every reward. */
  levels: z.array(levelRule),
  share_level1_bps: z.int(),
  share_level2_bps: z.int(),
  device_direct_bps: z.int(),
  power_level_bps: z.int(),
  power_level_min: z.int(),
  /** The current epoch (a UTC day in production). */
  epoch: z.int(),
});
export type TeamInfo = z.infer<typeof teamInfo>;

export const zhiListQuery = z.extend(pageQuery, {
  /** Someone in the caller's own team whose directs to list; absent: the caller's own directs. */
  user_id: z.optional(queryInt(1, 2 ** 31 - 1)),
});
export const teamMember = z.object({
  id: z.int(),
  /** Masked wallet address. */
  address: z.string(),
  joined_at: z.string(),
  level: z.int().check(z.gte(0), z.lte(5)),
  me_performance: amountText,
  team_performance: amountText,
  zhi_num: z.int(),
  team_num: z.int(),
});
export type TeamMember = z.infer<typeof teamMember>;
export const zhiListData = z.extend(paged(teamMember), {
  /** Whose directs these are (the caller, or the member asked for) and how deep below the caller. */
  owner: z.object({ id: z.int(), address: z.string(), depth: z.int().check(z.gte(0)) }),
});
export type ZhiListData = z.infer<typeof zhiListData>;

export const rankingEntry = z.object({
  rank: z.int().check(z.gte(1)),
  address: z.string(),
  /** Team performance added this week (USDT). */
  amount: amountText,
  level: z.int().check(z.gte(0), z.lte(5)),
});
export type RankingEntry = z.infer<typeof rankingEntry>;
export const rankingData = z.object({
  week: z.int(),
  starts_at: z.string(),
  ends_at: z.string(),
  /** Top 100 by team performance added this week; ties by who joined first. */
  list: z.array(rankingEntry),
  /** The caller's own place, also outside the top 100; rank null with nothing added this week. */
  me: z.object({ rank: z.nullable(z.int().check(z.gte(1))), amount: amountText }),
});
export type RankingData = z.infer<typeof rankingData>;

export const teamRewardsQuery = z.extend(pageQuery, { kind: z.optional(z.enum(teamRewardKinds)) });
/** One reward line with its source and inputs, so a user can recompute it. */
export const teamRewardLine = z.object({
  id: z.int(),
  /** The epoch it was earned in (a purchase's epoch for the device direct reward). */
  epoch: z.int(),
  kind: z.enum(teamRewardKinds),
  /** Masked address of the user whose income or purchase it comes from (the branch's direct for community income, oneself for power level income). */
  source: z.string(),
  /** 1 or 2 for share income; 1 (the branch) for community income; 0 for power level income. */
  source_depth: z.int(),
  /** The source's mining income of the epoch (the branch's for community income), or the purchase in USDT. */
  source_amount: amountText,
  rate_bps: z.int(),
  /** Community income: what lower levels in the branch already earn at their rates (rounded down). */
  lower_levels: amountText,
  /** What the formula gives, and what was paid (less only when the referral pool ran short). */
  wanted: amountText,
  amount: amountText,
  created_at: z.string(),
});
export type TeamRewardLine = z.infer<typeof teamRewardLine>;

export const teamRoutes = {
  info: route({
    method: 'GET',
    path: '/api/v1/team/info',
    input: undefined,
    response: envelope(teamInfo),
    auth: true,
    summary: "The caller's level, what the next needs, team figures and rewards by kind",
  }),
  zhiList: route({
    method: 'GET',
    path: '/api/v1/user/zhiList',
    input: zhiListQuery,
    response: envelope(zhiListData),
    auth: true,
    summary: "Direct referrals (the caller's, or of someone in the caller's team), newest first",
  }),
  ranking: route({
    method: 'GET',
    path: '/api/v1/user/ranking',
    input: undefined,
    response: envelope(rankingData),
    auth: true,
    summary: "This week's top 100 by team performance added, and the caller's rank",
  }),
  rewards: route({
    method: 'GET',
    path: '/api/v1/team/rewards',
    input: teamRewardsQuery,
    response: envelope(paged(teamRewardLine)),
    auth: true,
    summary: 'Team reward lines with their source and inputs, newest first',
  }),
};
