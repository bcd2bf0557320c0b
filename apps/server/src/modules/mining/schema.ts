// The mining module's tables (docs/architecture.md "Table ownership"): only this module's code runs SQL on
// them; other modules reach them through mining/index.ts. Other schema files import these only for
// foreign keys.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, jsonb, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, units, power, at } from '../../db/columns.ts';
import { devices } from '../device/schema.ts';
import { ledgerFlows } from '../ledger/schema.ts';
import { paymentOrders } from '../onchain/schema.ts';
import { users } from '../user/schema.ts';

/**
 * A destroy paid on chain (payment order of kind 'destroy', paid with PaymentGateway.payAndBurn):
 * the reference price it was quoted at and the USDT value of its NADI, fixed when the order was
 * created; the watcher's fulfilment creates the destroy miner from them.
 */
export const destroyOrders = pgTable(
  'destroy_orders',
  {
    orderId: bigint('order_id', { mode: 'number' })
      .primaryKey()
      .references(() => paymentOrders.id),
    price: units('price').notNull(),
    valueUsdt: units('value_usdt').notNull(),
  },
  (t) => [check('destroy_orders_positive', sql`${t.price} > 0 and ${t.valueUsdt} > 0`)],
);

/**
 * A user's miner: a device, a destroy (burned NADI) or the trial. Status (docs/product.md section 4): 1 experience (trial),
 * 2 paused, 3 permanent (running), 4 unknown (device never reported). A destroy miner's budget is the
 * USDT it may still earn: `releasedUsdt` of `budgetUsdt` is used ("released power").
 */
export const miners = pgTable(
  'miners',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind').notNull(),
    status: integer('status').notNull(),
    deviceId: bigint('device_id', { mode: 'number' }).references(() => devices.id),
    basePower: power('base_power').notNull(),
    giftPower: power('gift_power')
      .notNull()
      .default(sql`0`),
    payMethod: text('pay_method'),
    destroyNadi: units('destroy_nadi'),
    destroyPrice: units('destroy_price'),
    destroyUsdt: units('destroy_usdt'),
    budgetUsdt: units('budget_usdt')
      .notNull()
      .default(sql`0`),
    releasedUsdt: units('released_usdt')
      .notNull()
      .default(sql`0`),
    flowId: bigint('flow_id', { mode: 'number' }).references(() => ledgerFlows.id),
    startsEpoch: integer('starts_epoch').notNull(),
    /** Last epoch it counts in (the trial's seventh); null when open-ended. */
    endsEpoch: integer('ends_epoch'),
    createdAt: createdAt(),
  },
  (t) => [
    index('miners_user_idx').on(t.userId, t.id),
    index('miners_counting_idx').on(t.kind, t.status),
    uniqueIndex('miners_device_key').on(t.deviceId),
    uniqueIndex('miners_trial_once_key')
      .on(t.userId)
      .where(sql`${t.kind} = 'trial'`),
    check('miners_kind', sql`${t.kind} in ('device', 'destroy', 'trial', 'node', 'pledge')`),
    check('miners_status', sql`${t.status} between 1 and 4`),
    check('miners_device', sql`(${t.kind} = 'device') = (${t.deviceId} is not null)`),
    check('miners_budget', sql`${t.basePower} >= 0 and ${t.giftPower} >= 0 and ${t.releasedUsdt} >= 0 and ${t.releasedUsdt} <= ${t.budgetUsdt}`),
  ],
);

/** A user's nominal power (sum over their miners), the before/after of every power log row. */
export const userPower = pgTable('user_power', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  power: power('power').notNull(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/** Every change of a user's power, with its before and after. */
export const powerLog = pgTable(
  'power_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    type: text('type').notNull(),
    minerId: bigint('miner_id', { mode: 'number' }).references(() => miners.id),
    before: power('before').notNull(),
    after: power('after').notNull(),
    epoch: integer('epoch'),
    createdAt: createdAt(),
  },
  (t) => [index('power_log_user_idx').on(t.userId, t.id), index('power_log_user_type_idx').on(t.userId, t.type, t.id)],
);

/** An operator change of an economy number, in force from an epoch on (never retroactive). */
export const economyParams = pgTable(
  'economy_params',
  {
    name: text('name').notNull(),
    effectiveEpoch: integer('effective_epoch').notNull(),
    value: text('value').notNull(),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.name, t.effectiveEpoch] })],
);

/** One settled epoch: its inputs frozen at its end and what it paid. Its key makes settlement once. */
export const miningEpochs = pgTable('mining_epochs', {
  epoch: integer('epoch').primaryKey(),
  startsAt: at('starts_at').notNull(),
  endsAt: at('ends_at').notNull(),
  emission: units('emission').notNull(),
  /** What the pool could pay (the emission, or less when the pool runs dry). */
  payable: units('payable').notNull(),
  networkPower: power('network_power').notNull(),
  /** The reference price (USDT per NADI) that valued destroy miners' budgets. */
  price: units('price').notNull(),
  paid: units('paid').notNull(),
  released: units('released').notNull(),
  reduction: units('reduction').notNull(),
  users: integer('users').notNull(),
  flowId: bigint('flow_id', { mode: 'number' }).references(() => ledgerFlows.id),
  /** When the epoch's figures were computed (this row written); its users are paid chunk by chunk after it. */
  computedAt: at('computed_at').notNull(),
  /** When the last chunk posted: null while the epoch is being posted (docs/settlement.md). */
  settledAt: at('settled_at'),
  durationMs: integer('duration_ms'),
});

/**
 * A user's income of one epoch with its formula inputs: counted power by source, the income of each
 * source (device income, destroy profit, power income), the budget reduction, the immediate and
 * locked parts, and what vesting released to them in the same run.
 */
export const miningResults = pgTable(
  'mining_results',
  {
    epoch: integer('epoch').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    devicePower: power('device_power').notNull(),
    destroyPower: power('destroy_power').notNull(),
    otherPower: power('other_power').notNull(),
    deviceIncome: units('device_income').notNull(),
    destroyIncome: units('destroy_income').notNull(),
    powerIncome: units('power_income').notNull(),
    reduction: units('reduction').notNull(),
    immediate: units('immediate').notNull(),
    locked: units('locked').notNull(),
    released: units('released').notNull(),
  },
  (t) => [primaryKey({ columns: [t.epoch, t.userId] }), index('mining_results_user_idx').on(t.userId, t.epoch)],
);

/**
 * A user's vesting: `locked` is earned but not yet released, `claimable` released and not yet claimed
 * (`/receive`), `rate` the sum of the equal slices of the tranches still releasing. The NADI behind
 * them sits in the system `vesting` account; the audit checks the two agree.
 */
export const miningVesting = pgTable(
  'mining_vesting',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id),
    locked: units('locked').notNull(),
    claimable: units('claimable').notNull(),
    claimed: units('claimed')
      .notNull()
      .default(sql`0`),
    rate: units('rate').notNull(),
    updatedEpoch: integer('updated_epoch').notNull(),
  },
  (t) => [check('mining_vesting_not_negative', sql`${t.locked} >= 0 and ${t.claimable} >= 0 and ${t.rate} >= 0`)],
);

/**
 * One epoch's settlement run (docs/settlement.md): computed in one transaction that locks no user's
 * accounts, then posted chunk by chunk. `summary` holds each part's figures for its epoch row, written
 * when the last chunk has posted (`settled_at`).
 */
export const settlementRuns = pgTable(
  'settlement_runs',
  {
    epoch: integer('epoch').primaryKey(),
    status: text('status').notNull(),
    chunks: integer('chunks').notNull(),
    users: integer('users').notNull(),
    summary: jsonb('summary').notNull(),
    computedAt: at('computed_at').notNull(),
    computeMs: integer('compute_ms').notNull(),
    settledAt: at('settled_at'),
  },
  (t) => [check('settlement_runs_status', sql`${t.status} in ('posting', 'settled')`)],
);

/**
 * The chunks of a run: users `lo_user`..`hi_user` (by id), what the settlement account pays them
 * (`nadi`, `usdt`), and once posted, the flow and when. The durable cursor: a chunk posts once.
 */
export const settlementChunks = pgTable(
  'settlement_chunks',
  {
    epoch: integer('epoch').notNull(),
    chunk: integer('chunk').notNull(),
    loUser: integer('lo_user').notNull(),
    hiUser: integer('hi_user').notNull(),
    users: integer('users').notNull(),
    nadi: units('nadi').notNull(),
    usdt: units('usdt').notNull(),
    flowId: bigint('flow_id', { mode: 'number' }),
    postedAt: at('posted_at'),
    durationMs: integer('duration_ms'),
  },
  (t) => [
    primaryKey({ columns: [t.epoch, t.chunk] }),
    index('settlement_chunks_pending_idx')
      .on(t.epoch, t.chunk)
      .where(sql`${t.postedAt} is null`),
  ],
);

/** A user's mining figures of an epoch being posted (mining_settle_epoch writes them, each chunk applies its users'). */
export const miningSettleStage = pgTable(
  'mining_settle_stage',
  {
    epoch: integer('epoch').notNull(),
    userId: integer('user_id').notNull(),
    devicePower: power('device_power').notNull(),
    destroyPower: power('destroy_power').notNull(),
    otherPower: power('other_power').notNull(),
    deviceIncome: units('device_income').notNull(),
    destroyIncome: units('destroy_income').notNull(),
    powerIncome: units('power_income').notNull(),
    reduction: units('reduction').notNull(),
    immediate: units('immediate').notNull(),
    /** The immediate part by source (their legs): floor(source × bps), the units that leaves to the first source with income. */
    deviceNow: units('device_now').notNull(),
    destroyNow: units('destroy_now').notNull(),
    powerNow: units('power_now').notNull(),
    locked: units('locked').notNull(),
    released: units('released').notNull(),
    /** The change of the user's vesting rate: the new tranche's slice less the slices that ended. */
    rateDelta: units('rate_delta').notNull(),
    hasVesting: boolean('has_vesting').notNull(),
  },
  (t) => [primaryKey({ columns: [t.epoch, t.userId] })],
);

/** The miners whose status or used budget changes at an epoch's end, applied with their user's chunk. */
export const miningSettleMinerStage = pgTable(
  'mining_settle_miner_stage',
  {
    epoch: integer('epoch').notNull(),
    minerId: bigint('miner_id', { mode: 'number' }).notNull(),
    userId: integer('user_id').notNull(),
    fromStatus: integer('from_status').notNull(),
    status: integer('status').notNull(),
    used: units('used').notNull(),
    type: text('type').notNull(),
    delta: power('delta').notNull(),
  },
  (t) => [primaryKey({ columns: [t.epoch, t.minerId] }), index('mining_settle_miner_stage_user_idx').on(t.epoch, t.userId)],
);
