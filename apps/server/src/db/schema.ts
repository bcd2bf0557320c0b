import { sql } from 'drizzle-orm';
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

export type NoticeTranslations = Record<string, { title: string; content: string }>;

export const notices = pgTable(
  'notices',
  {
    id: serial('id').primaryKey(),
    /** Title and content per language code; TW is always present. */
    translations: jsonb('translations').$type<NoticeTranslations>().notNull(),
    isPublished: boolean('is_published').notNull().default(true),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [index('notices_published_idx').on(t.isPublished, t.publishedAt)],
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
    available: units('available').notNull().default(sql`0`),
    frozen: units('frozen').notNull().default(sql`0`),
    /** How many transfers touched this account: the audit compares it with the journal. */
    version: bigint('version', { mode: 'number' }).notNull().default(0),
    isSystem: boolean('is_system').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_accounts_owner_key').on(t.userId, t.kind, t.asset),
    uniqueIndex('ledger_accounts_system_key').on(t.kind, t.asset).where(sql`${t.userId} is null`),
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
