// The team module's tables (docs/architecture.md "Table ownership"): only this module's code runs SQL on
// them; other modules reach them through team/index.ts. Other schema files import these only for
// foreign keys.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, numeric, check, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, units, at } from '../../db/columns.ts';
import { users } from '../user/schema.ts';

/**
 * Purchase performance (docs/economy.md, "Team and rewards"): a user's own purchases in USDT and the sum over
 * everyone below them in the invite tree, kept as aggregates so reads are O(1).
 */
export const userPerformance = pgTable(
  'user_performance',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id),
    mePerformance: units('me_performance')
      .notNull()
      .default(sql`0`),
    teamPerformance: units('team_performance')
      .notNull()
      .default(sql`0`),
    /** Direct referrals; those of them whose own performance is above zero ("active"); everyone below. */
    directCount: integer('direct_count').notNull().default(0),
    activeDirects: integer('active_directs').notNull().default(0),
    teamSize: integer('team_size').notNull().default(0),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('user_performance_not_negative', sql`${t.mePerformance} >= 0 and ${t.teamPerformance} >= 0`),
    check('user_performance_counts_not_negative', sql`${t.directCount} >= 0 and ${t.activeDirects} >= 0 and ${t.teamSize} >= 0`),
  ],
);

/**
 * Team performance added per ranking week (docs/team.md "Ranking"): every ancestor of a buyer gets the
 * purchase (or its reversal) added to the week of the event, in the purchase's transaction.
 */
export const teamWeekPerformance = pgTable(
  'team_week_performance',
  {
    week: integer('week').notNull(),
    userId: integer('user_id').notNull(),
    amount: units('amount').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.week, t.userId] }), index('team_week_performance_rank_idx').on(t.week, t.amount.desc(), t.userId)],
);

/**
 * Marks of a week's ranking (docs/team.md "Ranking", "One's own rank"): every `rankMarkEvery`-th key
 * (amount, user id) of the ranking as it was when the job last rebuilt them, each with `rank`, the
 * number of ranked rows whose key is at or ahead of the mark, kept exact by the job's folds of
 * team_rank_moves. One's own rank is the mark just ahead plus a count of the rows between.
 */
export const teamRankMarks = pgTable(
  'team_rank_marks',
  {
    week: integer('week').notNull(),
    mark: integer('mark').notNull(),
    amount: units('amount').notNull(),
    userId: integer('user_id').notNull(),
    rank: integer('rank').notNull(),
  },
  (t) => [primaryKey({ columns: [t.week, t.mark] }), index('team_rank_marks_key_idx').on(t.week, t.amount.desc(), t.userId)],
);

/**
 * Every change of a ranked key since the job's last fold (docs/team.md "Ranking"): written by the
 * trigger on team_week_performance (sql/team_rank_moves_record.sql) in the writer's transaction, the
 * old and new amount (null: not ranked, at or below zero), deleted by the fold that counts it into
 * team_rank_marks. No index: the job keeps it to about one second of changes.
 */
export const teamRankMoves = pgTable('team_rank_moves', {
  week: integer('week').notNull(),
  userId: integer('user_id').notNull(),
  oldAmount: numeric('old_amount', { precision: 78, scale: 0, mode: 'bigint' }),
  newAmount: numeric('new_amount', { precision: 78, scale: 0, mode: 'bigint' }),
});

/** The weeks whose marks the job keeps: ranked rows as of the last fold, when it was built and folded. */
export const teamRankWeeks = pgTable('team_rank_weeks', {
  week: integer('week').primaryKey(),
  ranked: integer('ranked').notNull(),
  builtAt: at('built_at').notNull(),
  foldedAt: at('folded_at').notNull(),
});

/**
 * Team reward lines (docs/team.md "Rewards"): one per recipient, kind and source each epoch (share
 * income per referral, community income per branch, power level income for oneself), and one per
 * purchase (or clawback) for the device direct reward, with the inputs that recompute it.
 */
export const teamRewards = pgTable(
  'team_rewards',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    epoch: integer('epoch').notNull(),
    userId: integer('user_id').notNull(),
    kind: text('kind').notNull(),
    sourceUserId: integer('source_user_id').notNull(),
    sourceDepth: integer('source_depth').notNull(),
    /** The source's mining income (the branch's for community income), or the purchase in USDT. */
    sourceAmount: units('source_amount').notNull(),
    rateBps: integer('rate_bps').notNull(),
    /** Community income: Σ (lower level's rate × income) in base units × basis points (÷ 10⁴ for NADI). */
    lowerNumerator: units('lower_numerator')
      .notNull()
      .default(sql`0`),
    wanted: numeric('wanted', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
    /** Signed: a clawback of a device direct reward is negative. */
    amount: numeric('amount', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
    /** Purchase-time rewards: their source, unique ('store_order:12', 'store_order:12:refund'). */
    ref: text('ref'),
    flowId: bigint('flow_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('team_rewards_user_idx').on(t.userId, t.epoch, t.id),
    uniqueIndex('team_rewards_epoch_key')
      .on(t.epoch, t.userId, t.kind, t.sourceUserId)
      .where(sql`${t.ref} is null`),
    uniqueIndex('team_rewards_ref_key')
      .on(t.ref)
      .where(sql`${t.ref} is not null`),
    check('team_rewards_kind', sql`${t.kind} in ('device_direct_reward', 'share_income', 'community_power_income', 'power_level_income')`),
  ],
);

/** Each user's team rewards summed per kind (ever, and in the epoch they last changed), so the team screen reads one row per kind. */
export const teamRewardTotals = pgTable(
  'team_reward_totals',
  {
    userId: integer('user_id').notNull(),
    kind: text('kind').notNull(),
    total: numeric('total', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
    lastEpoch: integer('last_epoch').notNull(),
    lastEpochAmount: numeric('last_epoch_amount', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);

/** One row per settled epoch's team part. */
export const teamEpochs = pgTable('team_epochs', {
  epoch: integer('epoch').primaryKey(),
  wanted: units('wanted').notNull(),
  payable: units('payable').notNull(),
  paid: units('paid').notNull(),
  lines: integer('lines').notNull(),
  flowId: bigint('flow_id', { mode: 'number' }),
  settledAt: at('settled_at').notNull(),
});

/**
 * Every change of performance, once per source (`ref`, e.g. 'store_order:12' and
 * 'store_order:12:refund'), so weekly rankings can sum a window and a retry adds nothing.
 */
export const performanceEvents = pgTable(
  'performance_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** device, node or destroy. */
    kind: text('kind').notNull(),
    ref: text('ref').notNull(),
    /** Signed: a refund is negative. */
    usdt: numeric('usdt', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('performance_events_ref_key').on(t.ref),
    index('performance_events_time_idx').on(t.createdAt),
    check('performance_events_kind', sql`${t.kind} in ('device', 'node', 'destroy')`),
  ],
);

/** Team reward lines of an epoch being posted (team_settle_epoch writes them, each chunk applies its users'). */
export const teamSettleStage = pgTable(
  'team_settle_stage',
  {
    epoch: integer('epoch').notNull(),
    userId: integer('user_id').notNull(),
    /** 1 share income, 2 community power income, 3 power level income. */
    k: integer('k').notNull(),
    sourceUserId: integer('source_user_id').notNull(),
    sourceDepth: integer('source_depth').notNull(),
    sourceAmount: units('source_amount').notNull(),
    rateBps: integer('rate_bps').notNull(),
    lowerNumerator: units('lower_numerator').notNull(),
    wanted: numeric('wanted', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
    amount: numeric('amount', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.epoch, t.userId, t.k, t.sourceUserId] })],
);

/**
 * Purchases not yet folded into the ancestors' aggregates (docs/team.md "Aggregates", deferred
 * folding): a purchase appends its event here in its own transaction, and foldPerformance
 * (team/performance.ts) applies a batch to every ancestor's team_performance, active_directs and
 * week amount and deletes it, in one transaction. Readers add what is here, so figures stay exact.
 * `active_delta` is the referrer's change of active directs the purchase made (−1, 0 or 1, known
 * under the buyer's own row lock); `referrer_id` that referrer, null for a user without one.
 */
export const performancePending = pgTable(
  'performance_pending',
  {
    eventId: bigint('event_id', { mode: 'number' })
      .primaryKey()
      .references(() => performanceEvents.id),
    userId: integer('user_id').notNull(),
    referrerId: integer('referrer_id'),
    usdt: numeric('usdt', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
    activeDelta: integer('active_delta').notNull(),
    week: integer('week').notNull(),
    at: at('at').notNull(),
  },
  (t) => [check('performance_pending_active_delta', sql`${t.activeDelta} between -1 and 1`)],
);
