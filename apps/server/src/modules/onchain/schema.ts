// The onchain module's tables (docs/architecture.md "Table ownership"): only this module's code runs SQL on
// them; other modules reach them through onchain/index.ts. Other schema files import these only for
// foreign keys.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, units } from '../../db/columns.ts';
import { ledgerFlows } from '../ledger/schema.ts';
import { users } from '../user/schema.ts';

// ---------------------------------------------------------------------------------------------
// On-chain money (deposits, withdrawals, wallet payments). Chain amounts are base units of the
// token (18 decimals for NADI and the test USDT), like the ledger's.

/**
 * How far a chain scanner has read: the last block fully processed and its hash, so a restart
 * resumes there and a chain that no longer has that block (a reorg deeper than the scan window,
 * or a development chain started afresh) is noticed instead of silently skipped.
 */
export const chainCursors = pgTable('chain_cursors', {
  /** The scanner: 'deposits' or 'payments'. */
  name: text('name').primaryKey(),
  chainId: integer('chain_id').notNull(),
  blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
  blockHash: text('block_hash').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** A user's deposit address: child `addressIndex` of the deposit xpub (the index is the user id). */
export const depositAddresses = pgTable(
  'deposit_addresses',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id),
    addressIndex: integer('address_index').notNull(),
    /** Lower-case 0x address. */
    address: text('address').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('deposit_addresses_address_key').on(t.address),
    uniqueIndex('deposit_addresses_index_key').on(t.addressIndex),
    check('deposit_addresses_address_lower', sql`${t.address} = lower(${t.address})`),
  ],
);

/**
 * A token transfer to a deposit address, from the first time the scanner sees it: pending with its
 * confirmations, then credited once (unique chain/tx/log and the ledger's idempotency key), or
 * orphaned when its block left the canonical chain before it was credited.
 */
export const deposits = pgTable(
  'deposits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    chainId: integer('chain_id').notNull(),
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    blockHash: text('block_hash').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    address: text('address').notNull(),
    fromAddress: text('from_address').notNull(),
    token: text('token').notNull(),
    asset: text('asset').notNull().default('NADI'),
    amount: units('amount').notNull(),
    status: text('status').notNull().default('pending'),
    confirmations: integer('confirmations').notNull().default(0),
    flowId: bigint('flow_id', { mode: 'number' }).references(() => ledgerFlows.id),
    creditedAt: timestamp('credited_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('deposits_chain_tx_log_key').on(t.chainId, t.txHash, t.logIndex),
    index('deposits_user_idx').on(t.userId, t.id),
    index('deposits_pending_idx')
      .on(t.status)
      .where(sql`${t.status} = 'pending'`),
    check('deposits_status_known', sql`${t.status} in ('pending', 'credited', 'orphaned')`),
    check('deposits_amount_positive', sql`${t.amount} > 0`),
    check('deposits_credit_matches', sql`(${t.status} = 'credited') = (${t.flowId} is not null)`),
  ],
);

/**
 * A withdrawal (docs/product.md section 4): 0 pending review, 1 approved and being sent, 2 completed,
 * 3 rejected or failed on chain. The amount (fee included) is frozen in the fund account from the
 * moment of the request. The signed transaction and its hash are stored before it is broadcast,
 * so a sender that crashes re-broadcasts the same transaction instead of signing a second one.
 */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    asset: text('asset').notNull().default('NADI'),
    /** What leaves the user's balance: `receive` to the address plus `fee`. */
    amount: units('amount').notNull(),
    fee: units('fee').notNull(),
    receive: units('receive').notNull(),
    toAddress: text('to_address').notNull(),
    status: integer('status').notNull().default(0),
    /** The ledger key of the request (scoped Idempotency-Key): one withdrawal per key. */
    requestKey: text('request_key').notNull(),
    reviewedBy: integer('reviewed_by').references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true, mode: 'date' }),
    rejectReason: text('reject_reason'),
    chainId: integer('chain_id'),
    fromAddress: text('from_address'),
    txNonce: integer('tx_nonce'),
    txHash: text('tx_hash'),
    signedTx: text('signed_tx'),
    broadcastAt: timestamp('broadcast_at', { withTimezone: true, mode: 'date' }),
    blockNumber: bigint('block_number', { mode: 'bigint' }),
    confirmations: integer('confirmations').notNull().default(0),
    failReason: text('fail_reason'),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('withdrawals_request_key').on(t.requestKey),
    uniqueIndex('withdrawals_tx_hash_key').on(t.txHash),
    uniqueIndex('withdrawals_sender_nonce_key').on(t.chainId, t.fromAddress, t.txNonce),
    index('withdrawals_user_idx').on(t.userId, t.id),
    index('withdrawals_status_idx').on(t.status, t.id),
    check('withdrawals_status_known', sql`${t.status} in (0, 1, 2, 3)`),
    check('withdrawals_amounts', sql`${t.receive} > 0 and ${t.fee} >= 0 and ${t.amount} = ${t.receive} + ${t.fee}`),
    check('withdrawals_address_lower', sql`${t.toAddress} = lower(${t.toAddress})`),
  ],
);

/** The hot wallet's next transaction nonce per chain: taken under a row lock, one per withdrawal. */
export const senderNonces = pgTable(
  'sender_nonces',
  {
    chainId: integer('chain_id').notNull(),
    address: text('address').notNull(),
    nextNonce: integer('next_nonce').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.address] })],
);

/**
 * An order paid from the user's wallet through the PaymentGateway contract. `orderKey` is the
 * bytes32 order id the contract sees; the order is fulfilled once, after its Paid event has the
 * required confirmations and matches token and amount. A confirmed payment that does not match
 * (another token, less than the amount) is 'rejected' with the reason: the contract has then
 * taken the order id for good, so the order can never be paid again (an operator refunds).
 */
export const paymentOrders = pgTable(
  'payment_orders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** 0x-prefixed 32-byte hex, lower-case. */
    orderKey: text('order_key').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** What is being bought: 'test' here; node purchases later. */
    kind: text('kind').notNull(),
    asset: text('asset').notNull(),
    token: text('token').notNull(),
    amount: units('amount').notNull(),
    status: text('status').notNull().default('unpaid'),
    chainId: integer('chain_id').notNull(),
    txHash: text('tx_hash'),
    logIndex: integer('log_index'),
    blockNumber: bigint('block_number', { mode: 'bigint' }),
    blockHash: text('block_hash'),
    payer: text('payer'),
    /** What the Paid event carried (lower-case token address, base units), once seen. */
    paidToken: text('paid_token'),
    paidAmount: units('paid_amount'),
    /** Why a confirmed payment was not accepted: 'token_mismatch', 'amount_below_order' or 'not_burned'. */
    rejectReason: text('reject_reason'),
    confirmations: integer('confirmations').notNull().default(0),
    paidAt: timestamp('paid_at', { withTimezone: true, mode: 'date' }),
    fulfilledAt: timestamp('fulfilled_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payment_orders_order_key').on(t.orderKey),
    uniqueIndex('payment_orders_chain_tx_log_key').on(t.chainId, t.txHash, t.logIndex),
    index('payment_orders_user_idx').on(t.userId, t.id),
    check('payment_orders_status_known', sql`${t.status} in ('unpaid', 'paid', 'fulfilled', 'rejected')`),
    check('payment_orders_amount_positive', sql`${t.amount} > 0`),
    check('payment_orders_reject_reason', sql`(${t.status} = 'rejected') = (${t.rejectReason} is not null)`),
  ],
);
