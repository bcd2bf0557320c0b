import { sql } from 'drizzle-orm';
import type { NoticeTranslations } from '@nadi/api/notice';
import {
  bigint,
  bigserial,
  numeric,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Lower-case 0x address; one account per wallet. */
    address: text('address').notNull(),
    inviteCode: text('invite_code').notNull(),
    /** Fixed at registration; null only for the root of the referral tree. */
    referrerId: integer('referrer_id').references((): AnyPgColumn => users.id),
    name: text('name').notNull(),
    level: integer('level').notNull().default(0),
    role: text('role').notNull().default('user'),
    /** An operator froze the account: it signs in and reads, but moves no money (docs/operator.md). */
    frozenAt: timestamp('frozen_at', { withTimezone: true, mode: 'date' }),
    frozenReason: text('frozen_reason'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_address_key').on(t.address),
    uniqueIndex('users_invite_code_key').on(t.inviteCode),
    index('users_referrer_idx').on(t.referrerId),
    check('users_address_lower', sql`${t.address} = lower(${t.address})`),
    check('users_role_known', sql`${t.role} in ('user', 'operator')`),
  ],
);

/**
 * The referral tree as a closure table: one row per (ancestor, descendant) pair with its depth,
 * so team size and direct referrals are single indexed counts however deep the tree grows.
 */
export const userAncestors = pgTable(
  'user_ancestors',
  {
    ancestorId: integer('ancestor_id')
      .notNull()
      .references(() => users.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    depth: integer('depth').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.ancestorId, t.userId] }),
    index('user_ancestors_user_idx').on(t.userId),
    check('user_ancestors_depth_positive', sql`${t.depth} >= 1`),
  ],
);

/** Sign-in nonces: issued with their exact message, consumed once. */
export const siweNonces = pgTable(
  'siwe_nonces',
  {
    nonce: text('nonce').primaryKey(),
    address: text('address'),
    messageHash: text('message_hash').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('siwe_nonces_expires_idx').on(t.expiresAt)],
);

/** Opaque session tokens, stored only as their SHA-256 hash. */
export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    address: text('address').notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('sessions_token_hash_key').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

/**
 * A notice (docs/operator.md, "Notices"). A draft has no `publishedAt`; a notice is scheduled while
 * `publishedAt` is ahead, and phones see it from `publishedAt` on until it is withdrawn. `pushedAt`
 * is when the /ws push went out (at once for a publish now, by the notice job for a scheduled one).
 */
export const notices = pgTable(
  'notices',
  {
    id: serial('id').primaryKey(),
    /** Title and content per language code; at least one language is present. */
    translations: jsonb('translations').$type<NoticeTranslations>().notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }),
    pushedAt: timestamp('pushed_at', { withTimezone: true, mode: 'date' }),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true, mode: 'date' }),
    withdrawReason: text('withdraw_reason'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('notices_published_idx').on(t.publishedAt), check('notices_withdraw_reason', sql`(${t.withdrawnAt} is null) = (${t.withdrawReason} is null)`)],
);

/** Operator-set values that must survive restarts (node deadline, reference prices…). */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Bookkeeping of one-off seeds so a second start changes nothing. */
export const seedRuns = pgTable('seed_runs', {
  name: text('name').primaryKey(),
  ranAt: timestamp('ran_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  rows: bigint('rows', { mode: 'number' }).notNull(),
});

// ─── Ledger ────────────────────────────────────────────────────────────────────────────────────
// Amounts are numeric(78,0) base units (10^-18 of a token), read and written as bigint in code.

const units = (name: string) => numeric(name, { precision: 78, scale: 0, mode: 'bigint' });

/**
 * One account per (owner, kind, asset). User accounts can never go below zero (a CHECK, not only
 * code); system accounts (custody, fees, rewards pool, burn, treasury) are the other side of every
 * flow and may, so that each asset's balances always sum to zero.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').references(() => users.id),
    kind: text('kind').notNull(),
    asset: text('asset').notNull(),
    available: units('available')
      .notNull()
      .default(sql`0`),
    frozen: units('frozen')
      .notNull()
      .default(sql`0`),
    /** How many transfers touched this account: the audit compares it with the journal. */
    version: bigint('version', { mode: 'number' }).notNull().default(0),
    isSystem: boolean('is_system').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_accounts_owner_key').on(t.userId, t.kind, t.asset),
    uniqueIndex('ledger_accounts_system_key')
      .on(t.kind, t.asset)
      .where(sql`${t.userId} is null`),
    check('ledger_accounts_user_not_negative', sql`${t.isSystem} or (${t.available} >= 0 and ${t.frozen} >= 0)`),
    check('ledger_accounts_owner_matches', sql`(${t.userId} is null) = ${t.isSystem}`),
    check('ledger_accounts_asset_known', sql`${t.asset} in ('NADI', 'USDT')`),
  ],
);

/**
 * One request that moves money: its idempotency key and the hash of its parameters (a repeat with
 * other parameters is a conflict; a true repeat gets the same answer rebuilt from the same params).
 */
export const ledgerFlows = pgTable(
  'ledger_flows',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    idempotencyKey: text('idempotency_key').notNull(),
    userId: integer('user_id').references(() => users.id),
    type: text('type').notNull(),
    paramsHash: text('params_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('ledger_flows_key').on(t.idempotencyKey), index('ledger_flows_user_idx').on(t.userId, t.id)],
);

/**
 * The journal: append-only transfers, each debiting one account part and crediting another by the
 * same positive amount of the same asset, with both accounts' balances and versions after it.
 */
export const ledgerTransfers = pgTable(
  'ledger_transfers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    flowId: bigint('flow_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerFlows.id),
    type: text('type').notNull(),
    asset: text('asset').notNull(),
    amount: units('amount').notNull(),
    debitAccountId: bigint('debit_account_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerAccounts.id),
    debitPart: text('debit_part').notNull(),
    creditAccountId: bigint('credit_account_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerAccounts.id),
    creditPart: text('credit_part').notNull(),
    debitAvailableAfter: units('debit_available_after').notNull(),
    debitFrozenAfter: units('debit_frozen_after').notNull(),
    debitVersion: bigint('debit_version', { mode: 'number' }).notNull(),
    creditAvailableAfter: units('credit_available_after').notNull(),
    creditFrozenAfter: units('credit_frozen_after').notNull(),
    creditVersion: bigint('credit_version', { mode: 'number' }).notNull(),
    memo: jsonb('memo'),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_transfers_debit_idx').on(t.debitAccountId, t.id),
    index('ledger_transfers_credit_idx').on(t.creditAccountId, t.id),
    index('ledger_transfers_flow_idx').on(t.flowId),
    check('ledger_transfers_amount_positive', sql`${t.amount} > 0`),
    check('ledger_transfers_parts_known', sql`${t.debitPart} in ('available', 'frozen') and ${t.creditPart} in ('available', 'frozen')`),
    check('ledger_transfers_moves', sql`${t.debitAccountId} <> ${t.creditAccountId} or ${t.debitPart} <> ${t.creditPart}`),
  ],
);

/** Exchange quotes: a price held for a few seconds, used at most once. */
export const exchangeQuotes = pgTable(
  'exchange_quotes',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    fromAsset: text('from_asset').notNull(),
    toAsset: text('to_asset').notNull(),
    amount: units('amount').notNull(),
    price: units('price').notNull(),
    fee: units('fee').notNull(),
    receive: units('receive').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [index('exchange_quotes_user_idx').on(t.userId), index('exchange_quotes_expires_idx').on(t.expiresAt)],
);

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

// ---------------------------------------------------------------------------------------------
// Spot market (NADI/USDT). Prices are USDT base units per whole NADI, quantities NADI base units,
// quote amounts USDT base units. The matching engine's book is rebuilt from the open orders here
// on every start: this table, not the engine's memory, is the system of record.

/**
 * An order. `id` is the engine's order id (assigned by the market's single writer, strictly
 * increasing), so the book can be rebuilt in time priority from the database alone.
 */
export const marketOrders = pgTable(
  'market_orders',
  {
    id: bigint('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    clientOrderId: text('client_order_id'),
    symbol: text('symbol').notNull(),
    side: text('side').notNull(),
    type: text('type').notNull(),
    /** Limit price; null for a market order. */
    price: units('price'),
    /** Base quantity ordered; null for a market buy by quote amount. */
    quantity: units('quantity'),
    /** Market buy: the quote to spend (fee excluded); null otherwise. */
    quoteAmount: units('quote_amount'),
    filled: units('filled')
      .notNull()
      .default(sql`0`),
    quoteFilled: units('quote_filled')
      .notNull()
      .default(sql`0`),
    /** Sum over fills of quote × fee bps; the fee paid is ceil(this / 10000), so rounding is once per order. */
    feeNumerator: units('fee_numerator')
      .notNull()
      .default(sql`0`),
    fee: units('fee')
      .notNull()
      .default(sql`0`),
    /** Frozen at placement (trade account: USDT for a buy, NADI for a sell). */
    frozen: units('frozen').notNull(),
    /** What of it is still frozen; 0 once the order is finished. */
    frozenRemaining: units('frozen_remaining').notNull(),
    status: text('status').notNull(),
    /** Why it ended open: the engine's cancel reason (USER, NO_LIQUIDITY…). */
    cancelReason: text('cancel_reason'),
    /** Engine sequence of the order's acceptance and of its last event. */
    seq: bigint('seq', { mode: 'number' }).notNull(),
    lastSeq: bigint('last_seq', { mode: 'number' }).notNull(),
    /** The engine timestamp (ms) of the placement. */
    tsMs: bigint('ts_ms', { mode: 'number' }).notNull(),
    paramsHash: text('params_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    uniqueIndex('market_orders_client_key').on(t.userId, t.clientOrderId),
    index('market_orders_user_idx').on(t.userId, t.id),
    index('market_orders_open_idx')
      .on(t.symbol, t.id)
      .where(sql`${t.status} in ('pending', 'partial')`),
    check('market_orders_side_known', sql`${t.side} in ('buy', 'sell')`),
    check('market_orders_type_known', sql`${t.type} in ('limit', 'market')`),
    check('market_orders_status_known', sql`${t.status} in ('pending', 'partial', 'filled', 'cancelled')`),
    check(
      'market_orders_amounts',
      sql`${t.filled} >= 0 and ${t.quoteFilled} >= 0 and ${t.fee} >= 0 and ${t.frozenRemaining} >= 0 and ${t.frozenRemaining} <= ${t.frozen}`,
    ),
    // A market order is written open for a moment, inside the transaction that finishes it.
    check('market_orders_open_unfilled', sql`${t.status} not in ('pending', 'partial') or ${t.quantity} is null or ${t.filled} < ${t.quantity}`),
    check('market_orders_finished_released', sql`${t.status} in ('pending', 'partial') or ${t.frozenRemaining} = 0`),
  ],
);

/** One fill, at the maker's price. Candlesticks and the ticker are computed from this table. */
export const marketTrades = pgTable(
  'market_trades',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    symbol: text('symbol').notNull(),
    /** The engine's event sequence number of the trade. */
    seq: bigint('seq', { mode: 'number' }).notNull(),
    makerOrderId: bigint('maker_order_id', { mode: 'number' })
      .notNull()
      .references(() => marketOrders.id),
    takerOrderId: bigint('taker_order_id', { mode: 'number' })
      .notNull()
      .references(() => marketOrders.id),
    makerUserId: integer('maker_user_id')
      .notNull()
      .references(() => users.id),
    takerUserId: integer('taker_user_id')
      .notNull()
      .references(() => users.id),
    takerSide: text('taker_side').notNull(),
    price: units('price').notNull(),
    quantity: units('quantity').notNull(),
    quote: units('quote').notNull(),
    makerFee: units('maker_fee').notNull(),
    takerFee: units('taker_fee').notNull(),
    /** Engine timestamp, ms since the epoch: the candle a trade belongs to. */
    tsMs: bigint('ts_ms', { mode: 'number' }).notNull(),
    flowId: bigint('flow_id', { mode: 'number' }).references(() => ledgerFlows.id),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    uniqueIndex('market_trades_seq_key').on(t.symbol, t.seq),
    index('market_trades_ts_idx').on(t.symbol, t.tsMs),
    index('market_trades_maker_idx').on(t.makerUserId, t.id),
    index('market_trades_taker_idx').on(t.takerUserId, t.id),
    check('market_trades_amounts', sql`${t.price} > 0 and ${t.quantity} > 0 and ${t.quote} > 0 and ${t.makerFee} >= 0 and ${t.takerFee} >= 0`),
  ],
);

// ─── Mining (docs/economy.md) ──────────────────────────────────────────────────────────────────
// Power is counted in hundredths of a P (cP) as bigint; amounts are base units as everywhere.

const power = (name: string) => bigint(name, { mode: 'bigint' });
const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** What the operator sells and registers: a kind of device and the power it brings. */
export const deviceModels = pgTable(
  'device_models',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    basePower: power('base_power').notNull(),
    giftPower: power('gift_power')
      .notNull()
      .default(sql`0`),
    priceUsdt: units('price_usdt')
      .notNull()
      .default(sql`0`),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('device_models_code_key').on(t.code),
    check('device_models_power', sql`${t.basePower} > 0 and ${t.giftPower} >= 0 and ${t.priceUsdt} >= 0`),
  ],
);

/**
 * One physical device: its serial and Ed25519 public key (hex), registered by the operator. Bound to
 * a user by an activation code; `lastCounter` refuses replayed heartbeats.
 */
export const devices = pgTable(
  'devices',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    serial: text('serial').notNull(),
    publicKey: text('public_key').notNull(),
    modelId: integer('model_id')
      .notNull()
      .references(() => deviceModels.id),
    ownerUserId: integer('owner_user_id').references(() => users.id),
    boundAt: at('bound_at'),
    lastCounter: bigint('last_counter', { mode: 'number' }).notNull().default(0),
    firstSeenAt: at('first_seen_at'),
    lastSeenAt: at('last_seen_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('devices_serial_key').on(t.serial), uniqueIndex('devices_public_key_key').on(t.publicKey), index('devices_owner_idx').on(t.ownerUserId)],
);

/** A batch of activation codes generated at once; the codes are shown once and stored hashed. */
export const activationCodeBatches = pgTable('activation_code_batches', {
  id: serial('id').primaryKey(),
  count: integer('count').notNull(),
  createdBy: integer('created_by').references(() => users.id),
  expiresAt: at('expires_at'),
  createdAt: createdAt(),
});

/** One code per device (printed in its box): SHA-256 of the normalised code, never the code itself. */
export const activationCodes = pgTable(
  'activation_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    batchId: integer('batch_id')
      .notNull()
      .references(() => activationCodeBatches.id),
    deviceId: bigint('device_id', { mode: 'number' })
      .notNull()
      .references(() => devices.id),
    codeHash: text('code_hash').notNull(),
    /** issued → used (bound once) or revoked. */
    state: text('state').notNull().default('issued'),
    expiresAt: at('expires_at'),
    usedBy: integer('used_by').references(() => users.id),
    usedAt: at('used_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('activation_codes_hash_key').on(t.codeHash),
    uniqueIndex('activation_codes_device_key').on(t.deviceId),
    check('activation_codes_state', sql`${t.state} in ('issued', 'used', 'revoked')`),
    check('activation_codes_used', sql`(${t.state} = 'used') = (${t.usedBy} is not null)`),
  ],
);

/** A user's activation of a device: pending until the device's first valid heartbeat, then success. */
export const activations = pgTable(
  'activations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    deviceId: bigint('device_id', { mode: 'number' })
      .notNull()
      .references(() => devices.id),
    codeId: bigint('code_id', { mode: 'number' })
      .notNull()
      .references(() => activationCodes.id),
    status: text('status').notNull().default('pending'),
    createdAt: createdAt(),
    succeededAt: at('succeeded_at'),
  },
  (t) => [
    uniqueIndex('activations_device_key').on(t.deviceId),
    uniqueIndex('activations_code_key').on(t.codeId),
    index('activations_user_idx').on(t.userId, t.id),
    check('activations_status', sql`${t.status} in ('pending', 'success')`),
  ],
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

/** Heartbeats of a device in an epoch, in aggregate (one row per device and epoch, not per beat). */
export const deviceUptime = pgTable(
  'device_uptime',
  {
    deviceId: bigint('device_id', { mode: 'number' })
      .notNull()
      .references(() => devices.id),
    epoch: integer('epoch').notNull(),
    beats: integer('beats').notNull(),
    lastBeatAt: at('last_beat_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.epoch] }), index('device_uptime_epoch_idx').on(t.epoch)],
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
  settledAt: at('settled_at').notNull(),
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

// ---------------------------------------------------------------------------------------------
// Store (docs/store.md): device products, orders with their items, the devices shipped in them,
// delivery addresses, and purchase performance (team). Amounts are base units like the ledger's.

/**
 * A delivery address. Exactly one default per user with any address (the partial unique index
 * backs the service's rule). Orders copy the address they ship to, so editing or deleting one
 * never changes an order.
 */
export const addresses = pgTable(
  'addresses',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    receiverName: text('receiver_name').notNull(),
    /** ISO 3166-1 alpha-2 country of the phone number, e.g. 'TW'. */
    phoneCountry: text('phone_country').notNull(),
    /** E.164, e.g. '+886912345678'. */
    phone: text('phone').notNull(),
    area: text('area').notNull(),
    detail: text('detail').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('addresses_user_idx').on(t.userId, t.id),
    uniqueIndex('addresses_one_default')
      .on(t.userId)
      .where(sql`${t.isDefault}`),
  ],
);

/** A device model on sale: its price, stock and the text a shopper reads. */
export const storeProducts = pgTable(
  'store_products',
  {
    id: serial('id').primaryKey(),
    modelId: integer('model_id')
      .notNull()
      .references(() => deviceModels.id),
    name: text('name').notNull(),
    /** An image shipped with the web app (apps/web/src/features/store/images), by its key. */
    image: text('image').notNull(),
    /** Short description per language code ({EN: …, TW: …}); the web falls back to EN. */
    summary: jsonb('summary').$type<Record<string, string>>().notNull(),
    /** Specifications as [{key, value}], the key one of the contract's storeSpecKeys. */
    specs: jsonb('specs').$type<{ key: string; value: string }[]>().notNull(),
    priceUsdt: units('price_usdt').notNull(),
    /** Units that can still be sold (reserved by an unpaid order or sold are not in it). */
    stock: integer('stock').notNull(),
    sold: integer('sold').notNull().default(0),
    perOrderMax: integer('per_order_max').notNull(),
    isOnSale: boolean('is_on_sale').notNull().default(true),
    sort: integer('sort').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [check('store_products_numbers', sql`${t.priceUsdt} > 0 and ${t.stock} >= 0 and ${t.sold} >= 0 and ${t.perOrderMax} > 0`)],
);

/**
 * An order. Status: unpaid (a chain payment is awaited; stock reserved until expires_at) →
 * to_ship → to_receive (shipped) → completed (confirmed by the user, or 10 days after shipping);
 * unpaid → cancelled (by the user, or expired); to_ship → refunded (by an operator).
 */
export const storeOrders = pgTable(
  'store_orders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderNo: text('order_no').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** The request's idempotency key (scoped to the user): a repeat answers this order. */
    requestKey: text('request_key').notNull(),
    status: text('status').notNull(),
    /** balance (fund account), credit (destroy quota, USDT) or chain (the wallet, through the gateway). */
    payMethod: text('pay_method').notNull(),
    payAsset: text('pay_asset').notNull(),
    totalUsdt: units('total_usdt').notNull(),
    /** What was charged in pay_asset (NADI at `price` when paid in NADI). */
    payAmount: units('pay_amount').notNull(),
    /** USDT per NADI the NADI amount was computed at; null for USDT. */
    price: units('price'),
    itemCount: integer('item_count').notNull(),
    remark: text('remark').notNull().default(''),
    receiverName: text('receiver_name').notNull(),
    phone: text('phone').notNull(),
    area: text('area').notNull(),
    detail: text('detail').notNull(),
    paymentOrderId: bigint('payment_order_id', { mode: 'number' }).references(() => paymentOrders.id),
    /** The ledger flow that paid the order (balance, credit, or the chain payment's revenue flow). */
    flowId: bigint('flow_id', { mode: 'number' }),
    refundFlowId: bigint('refund_flow_id', { mode: 'number' }),
    /** The referrer paid the device direct reward, and how much NADI (clawed back on refund). */
    rewardUserId: integer('reward_user_id'),
    rewardNadi: units('reward_nadi')
      .notNull()
      .default(sql`0`),
    courierCompany: text('courier_company'),
    courierNumber: text('courier_number'),
    cancelReason: text('cancel_reason'),
    expiresAt: at('expires_at'),
    paidAt: at('paid_at'),
    shippedAt: at('shipped_at'),
    confirmedAt: at('confirmed_at'),
    isAutoConfirmed: boolean('is_auto_confirmed').notNull().default(false),
    cancelledAt: at('cancelled_at'),
    refundedAt: at('refunded_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('store_orders_order_no_key').on(t.orderNo),
    uniqueIndex('store_orders_request_key').on(t.requestKey),
    uniqueIndex('store_orders_payment_order_key').on(t.paymentOrderId),
    index('store_orders_user_idx').on(t.userId, t.id),
    index('store_orders_status_idx').on(t.status, t.id),
    check('store_orders_status', sql`${t.status} in ('unpaid', 'to_ship', 'to_receive', 'completed', 'cancelled', 'refunded')`),
    check('store_orders_pay', sql`${t.payMethod} in ('balance', 'credit', 'chain') and ${t.payAsset} in ('USDT', 'NADI')`),
    check('store_orders_amounts', sql`${t.totalUsdt} > 0 and ${t.payAmount} > 0 and ${t.rewardNadi} >= 0 and ${t.itemCount} > 0`),
    check('store_orders_chain', sql`(${t.payMethod} = 'chain') = (${t.paymentOrderId} is not null)`),
  ],
);

/** What an order bought, as it was priced when the order was made. */
export const storeOrderItems = pgTable(
  'store_order_items',
  {
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => storeOrders.id),
    productId: integer('product_id')
      .notNull()
      .references(() => storeProducts.id),
    modelId: integer('model_id').notNull(),
    name: text('name').notNull(),
    image: text('image').notNull(),
    priceUsdt: units('price_usdt').notNull(),
    quantity: integer('quantity').notNull(),
    /** Base + gift power of one unit, centi-P. */
    unitPower: power('unit_power').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.productId] }), check('store_order_items_quantity', sql`${t.quantity} > 0`)],
);

/** The devices an operator shipped in an order's box; a device ships once. */
export const storeOrderDevices = pgTable(
  'store_order_devices',
  {
    deviceId: bigint('device_id', { mode: 'number' })
      .primaryKey()
      .references(() => devices.id),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => storeOrders.id),
  },
  (t) => [index('store_order_devices_order_idx').on(t.orderId)],
);

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
 * Daily sign-in (docs/team.md "Daily sign-in"): one row per user and day (epoch); the primary key is
 * what makes a second sign-in the same day impossible, whatever the number of requests or instances.
 * The cycle day is derived from the previous row when the row is written.
 */
export const signIns = pgTable(
  'sign_ins',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    day: integer('day').notNull(),
    cycleDay: smallint('cycle_day').notNull(),
    award: units('award').notNull(),
    flowId: bigint('flow_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] }), check('sign_ins_cycle_day', sql`${t.cycleDay} between 1 and 7`)],
);

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

// ---------------------------------------------------------------------------------------------
// Nodes and savings (docs/nodes-and-savings.md). A held node and an active pledge each have a miner
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

// ---------------------------------------------------------------------------------------------
// The operator console (docs/operator.md): roles, the audit trail, four-eyes approvals.

/** Console roles held in the database; the configuration's OPERATOR_ADDRESSES are admins besides. */
export const operatorRoles = pgTable(
  'operator_roles',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id),
    role: text('role').notNull(),
    grantedBy: integer('granted_by').references(() => users.id),
    grantedAt: timestamp('granted_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [check('operator_roles_role', sql`${t.role} in ('viewer', 'operator', 'admin')`)],
);

/**
 * The audit trail: one row per operator action, written in the action's own transaction; a trigger
 * refuses every UPDATE and DELETE (append-only, migration 0019).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: integer('actor_id')
      .notNull()
      .references(() => users.id),
    /** What was done: 'withdraw.approve', 'economy.param.request', 'user.freeze', … */
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason'),
    approvalId: bigint('approval_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_time_idx').on(t.createdAt.desc(), t.id.desc()),
    index('audit_log_actor_idx').on(t.actorId, t.createdAt),
    index('audit_log_target_idx').on(t.targetType, t.targetId),
  ],
);

/**
 * Four-eyes approvals: a dangerous action (an economy parameter change, a large withdrawal) is a
 * request that a second operator, not the requester, approves (it then runs) or rejects.
 */
export const approvals = pgTable(
  'approvals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    /** What runs when approved (the action's input), and a short human summary. */
    payload: jsonb('payload').notNull(),
    summary: text('summary').notNull(),
    status: text('status').notNull().default('pending'),
    requestedBy: integer('requested_by')
      .notNull()
      .references(() => users.id),
    requestedAt: timestamp('requested_at', { withTimezone: true, mode: 'date' }).notNull(),
    reason: text('reason'),
    decidedBy: integer('decided_by').references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    decisionReason: text('decision_reason'),
  },
  (t) => [
    index('approvals_status_idx').on(t.status, t.requestedAt),
    check('approvals_status', sql`${t.status} in ('pending', 'approved', 'rejected')`),
    check('approvals_not_self', sql`${t.decidedBy} is null or ${t.decidedBy} <> ${t.requestedBy}`),
  ],
);
