// The node module's tables (docs/architecture.md "Table ownership"): only this module's code runs SQL on
// them; other modules reach them through node/index.ts. Other schema files import these only for
// foreign keys.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, units, power, at } from '../../db/columns.ts';
import { paymentOrders } from '../onchain/schema.ts';
import { users } from '../user/schema.ts';

// ---------------------------------------------------------------------------------------------
// Nodes (docs/nodes-and-savings.md). A held node and an active pledge each have a miner
// row (kind 'node' / 'pledge') carrying their power, so the mining settlement counts them like any
// other power; what they earn besides is settled by node_settle_epoch and pledge_settle_epoch.

/** A node tier (T1–T5): price, quota and what it gives. `sold` never passes `total_quota`. */
export const nodeTiers = pgTable(
  'node_tiers',
  {
    id: serial('id').primaryKey(),
    levelId: integer('level_id').notNull(),
    name: text('name').notNull(),
    priceUsdt: units('price_usdt').notNull(),
    totalQuota: integer('total_quota').notNull(),
    /** Held, plus held for unpaid wallet orders. */
    sold: integer('sold').notNull().default(0),
    perUserLimit: integer('per_user_limit').notNull(),
    giftPower: power('gift_power').notNull(),
    machineRateBps: integer('machine_rate_bps').notNull(),
    withdrawRate: integer('withdraw_rate').notNull(),
    isOnSale: boolean('is_on_sale').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('node_tiers_level_key').on(t.levelId),
    check(
      'node_tiers_numbers',
      sql`${t.priceUsdt} > 0 and ${t.sold} >= 0 and ${t.sold} <= ${t.totalQuota} and ${t.perUserLimit} > 0 and ${t.giftPower} >= 0 and ${t.machineRateBps} between 0 and 10000 and ${t.withdrawRate} >= 0`,
    ),
  ],
);

/** A node a user holds (bought by balance, destroy quota or the wallet). */
export const userNodes = pgTable(
  'user_nodes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    tierId: integer('tier_id')
      .notNull()
      .references(() => nodeTiers.id),
    payMethod: text('pay_method').notNull(),
    payAsset: text('pay_asset').notNull(),
    payAmount: units('pay_amount').notNull(),
    /** USDT per NADI a NADI payment was computed at. */
    price: units('price'),
    /** The request's idempotency key (scoped to the user): a repeat answers this holding. */
    requestKey: text('request_key'),
    flowId: bigint('flow_id', { mode: 'number' }),
    paymentOrderId: bigint('payment_order_id', { mode: 'number' }).references(() => paymentOrders.id),
    minerId: bigint('miner_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('user_nodes_user_idx').on(t.userId, t.tierId),
    uniqueIndex('user_nodes_request_key').on(t.requestKey),
    uniqueIndex('user_nodes_payment_order_key').on(t.paymentOrderId),
    check('user_nodes_pay', sql`${t.payMethod} in ('balance', 'credit', 'chain') and ${t.payAsset} in ('USDT', 'NADI') and ${t.payAmount} > 0`),
  ],
);

/** A node paid from the wallet: the unit of quota it holds until paid or expired. */
export const nodeOrders = pgTable(
  'node_orders',
  {
    paymentOrderId: bigint('payment_order_id', { mode: 'number' })
      .primaryKey()
      .references(() => paymentOrders.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    tierId: integer('tier_id')
      .notNull()
      .references(() => nodeTiers.id),
    requestKey: text('request_key').notNull(),
    payAsset: text('pay_asset').notNull(),
    price: units('price'),
    /** unpaid (holds a unit), paid (the holding exists), expired (unit released), refunded (paid late, no unit left). */
    status: text('status').notNull().default('unpaid'),
    expiresAt: at('expires_at').notNull(),
    holdingId: bigint('holding_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('node_orders_request_key').on(t.requestKey),
    index('node_orders_unpaid_idx').on(t.status, t.expiresAt),
    index('node_orders_user_idx').on(t.userId, t.tierId),
    check('node_orders_status', sql`${t.status} in ('unpaid', 'paid', 'expired', 'refunded')`),
  ],
);

/** A settled epoch of the node rewards: the fee inflow it split and what it paid. */
export const nodeEpochs = pgTable('node_epochs', {
  epoch: integer('epoch').primaryKey(),
  feesNadi: units('fees_nadi').notNull(),
  feesUsdt: units('fees_usdt').notNull(),
  dividendNadi: units('dividend_nadi').notNull(),
  dividendUsdt: units('dividend_usdt').notNull(),
  bonusPaid: units('bonus_paid').notNull(),
  weightTotal: bigint('weight_total', { mode: 'bigint' }).notNull(),
  holders: integer('holders').notNull(),
  flowId: bigint('flow_id', { mode: 'number' }),
  settledAt: at('settled_at').notNull(),
});

/** What each held node earned in an epoch. */
export const nodeEarnings = pgTable(
  'node_earnings',
  {
    epoch: integer('epoch').notNull(),
    holdingId: bigint('holding_id', { mode: 'number' }).notNull(),
    userId: integer('user_id').notNull(),
    miningIncome: units('mining_income').notNull(),
    dividendNadi: units('dividend_nadi').notNull(),
    dividendUsdt: units('dividend_usdt').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.epoch, t.holdingId] }),
    index('node_earnings_holding_idx').on(t.holdingId, t.epoch),
    index('node_earnings_user_idx').on(t.userId, t.epoch),
  ],
);

/** Node earnings of an epoch being posted, per holding (node_settle_epoch writes them, each chunk applies its users'). */
export const nodeSettleStage = pgTable(
  'node_settle_stage',
  {
    epoch: integer('epoch').notNull(),
    holdingId: bigint('holding_id', { mode: 'number' }).notNull(),
    userId: integer('user_id').notNull(),
    miningIncome: units('mining_income').notNull(),
    dividendNadi: units('dividend_nadi').notNull(),
    dividendUsdt: units('dividend_usdt').notNull(),
  },
  (t) => [primaryKey({ columns: [t.epoch, t.holdingId] }), index('node_settle_stage_user_idx').on(t.epoch, t.userId)],
);
