// The ledger module's tables (docs/architecture.md "Table ownership"): only this module's code runs SQL on
// them; other modules reach them through ledger/index.ts. Other schema files import these only for
// foreign keys.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, units } from '../../db/columns.ts';
import { users } from '../user/schema.ts';

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
