// The pledge module's tables (docs/architecture.md "Table ownership"): only this module's code runs SQL on
// them; other modules reach them through pledge/index.ts. Other schema files import these only for
// foreign keys.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, units, at } from '../../db/columns.ts';
import { users } from '../user/schema.ts';

/** A savings product (flexible, locked, joint, node). Rates in parts per million per epoch. */
export const pledgeProducts = pgTable(
  'pledge_products',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    termEpochs: integer('term_epochs').notNull().default(0),
    minPledge: units('min_pledge').notNull(),
    dayRatePpm: integer('day_rate_ppm').notNull().default(0),
    /** Joint savings: the interest shared each epoch. */
    epochBudget: units('epoch_budget'),
    poolCap: units('pool_cap').notNull(),
    /** NADI pledged in it now (active positions). */
    total: units('total')
      .notNull()
      .default(sql`0`),
    startsAt: at('starts_at').notNull(),
    endsAt: at('ends_at').notNull(),
    isEnabled: boolean('is_enabled').notNull().default(true),
    sort: integer('sort').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    check('pledge_products_kind', sql`${t.kind} in ('flexible', 'locked', 'joint', 'node')`),
    check(
      'pledge_products_numbers',
      sql`${t.termEpochs} >= 0 and ${t.minPledge} > 0 and ${t.dayRatePpm} >= 0 and ${t.poolCap} > 0 and ${t.total} >= 0 and ${t.total} <= ${t.poolCap} and ${t.endsAt} > ${t.startsAt}`,
    ),
    check('pledge_products_term', sql`(${t.kind} = 'locked') = (${t.termEpochs} > 0)`),
    check('pledge_products_joint', sql`(${t.kind} = 'joint') = (${t.epochBudget} is not null)`),
  ],
);

/** A user's pledge. Interest from start_epoch (the epoch after joining) to end_epoch (locked) or redemption. */
export const pledgePositions = pgTable(
  'pledge_positions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    productId: integer('product_id')
      .notNull()
      .references(() => pledgeProducts.id),
    amount: units('amount').notNull(),
    /** The product's rate when joined (joint: 0, its share of the budget is computed each epoch). */
    dayRatePpm: integer('day_rate_ppm').notNull(),
    startEpoch: integer('start_epoch').notNull(),
    endEpoch: integer('end_epoch'),
    status: text('status').notNull().default('active'),
    requestKey: text('request_key').notNull(),
    minerId: bigint('miner_id', { mode: 'number' }),
    flowId: bigint('flow_id', { mode: 'number' }),
    releaseFlowId: bigint('release_flow_id', { mode: 'number' }),
    interestTotal: units('interest_total')
      .notNull()
      .default(sql`0`),
    createdAt: createdAt(),
    redeemedAt: at('redeemed_at'),
  },
  (t) => [
    index('pledge_positions_user_idx').on(t.userId, t.id),
    index('pledge_positions_active_idx').on(t.status, t.productId),
    // The settlement of epoch n also pays positions redeemed after n ended (redeemed_at >= its end).
    index('pledge_positions_redeemed_idx')
      .on(t.redeemedAt)
      .where(sql`${t.redeemedAt} is not null`),
    uniqueIndex('pledge_positions_request_key').on(t.requestKey),
    check('pledge_positions_status', sql`${t.status} in ('active', 'redeemed')`),
    check('pledge_positions_amount', sql`${t.amount} > 0 and ${t.interestTotal} >= 0`),
  ],
);

/** A settled epoch of savings interest and releases. */
export const pledgeEpochs = pgTable('pledge_epochs', {
  epoch: integer('epoch').primaryKey(),
  interestPaid: units('interest_paid').notNull(),
  released: units('released').notNull(),
  positions: integer('positions').notNull(),
  flowId: bigint('flow_id', { mode: 'number' }),
  settledAt: at('settled_at').notNull(),
});

/** Interest each position earned in an epoch (receiveInfo's lines). */
export const pledgeInterestLines = pgTable(
  'pledge_interest_lines',
  {
    epoch: integer('epoch').notNull(),
    positionId: bigint('position_id', { mode: 'number' }).notNull(),
    userId: integer('user_id').notNull(),
    amount: units('amount').notNull(),
  },
  (t) => [primaryKey({ columns: [t.epoch, t.positionId] }), index('pledge_interest_lines_user_idx').on(t.userId, t.epoch)],
);

/** A user's savings interest: accrued and not yet claimed, and claimed so far. */
export const pledgeInterest = pgTable(
  'pledge_interest',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id),
    claimable: units('claimable')
      .notNull()
      .default(sql`0`),
    claimedTotal: units('claimed_total')
      .notNull()
      .default(sql`0`),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [check('pledge_interest_not_negative', sql`${t.claimable} >= 0 and ${t.claimedTotal} >= 0`)],
);

/** Savings interest of an epoch being posted, per position (pledge_settle_epoch writes it, each chunk applies its users'). */
export const pledgeSettleInterestStage = pgTable(
  'pledge_settle_interest_stage',
  {
    epoch: integer('epoch').notNull(),
    positionId: bigint('position_id', { mode: 'number' }).notNull(),
    userId: integer('user_id').notNull(),
    paid: units('paid').notNull(),
  },
  (t) => [primaryKey({ columns: [t.epoch, t.positionId] }), index('pledge_settle_interest_stage_user_idx').on(t.epoch, t.userId)],
);

/** Locked positions released at an epoch's end, applied with their user's chunk. */
export const pledgeSettleReleaseStage = pgTable(
  'pledge_settle_release_stage',
  {
    epoch: integer('epoch').notNull(),
    positionId: bigint('position_id', { mode: 'number' }).notNull(),
    userId: integer('user_id').notNull(),
    productId: integer('product_id').notNull(),
    amount: units('amount').notNull(),
    minerId: bigint('miner_id', { mode: 'number' }),
  },
  (t) => [primaryKey({ columns: [t.epoch, t.positionId] }), index('pledge_settle_release_stage_user_idx').on(t.epoch, t.userId)],
);
