// The transparency module's tables (docs/architecture.md "Table ownership"; docs/transparency.md):
// only this module's code runs SQL on them; other modules reach them through transparency/index.ts.
// Other schema files import these only for foreign keys.
import { sql } from 'drizzle-orm';
import { bigint, check, customType, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, units } from '../../db/columns.ts';
import { users } from '../user/schema.ts';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * Each user's secret salt (32 random bytes), made the first time a tree includes them. It hides
 * who a leaf belongs to; only the user is ever given it, inside their own proof.
 */
export const proofSalts = pgTable('proof_salts', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  salt: bytea('salt').notNull(),
  createdAt: createdAt(),
});

/**
 * A tree's published data (scope `snapshot:<id>` or `rewards:<epoch>`): its dimensions, size and root.
 * The leaves and whose they are sit in proofTreeChunks.
 */
export const proofTrees = pgTable('proof_trees', {
  scope: text('scope').primaryKey(),
  dims: text('dims').array().notNull(),
  leafCount: integer('leaf_count').notNull(),
  users: integer('users').notNull(),
  rootHash: text('root_hash').notNull(),
  /** The root's sums in base units, in `dims` order. */
  rootSums: units('root_sums').array().notNull(),
  createdAt: createdAt(),
});

/**
 * A tree's leaves in chunks of consecutive leaves: `leaves` is the flat leaf bytes (packages/proof),
 * `owners` says whose each leaf is (per leaf a u32 user id and a u8 part number), never published.
 */
export const proofTreeChunks = pgTable(
  'proof_tree_chunks',
  {
    scope: text('scope')
      .notNull()
      .references(() => proofTrees.scope, { onDelete: 'cascade' }),
    chunk: integer('chunk').notNull(),
    firstLeaf: integer('first_leaf').notNull(),
    leaves: bytea('leaves').notNull(),
    owners: bytea('owners').notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.chunk] })],
);

/**
 * A liabilities snapshot: taken at an epoch's end (or on an operator's request) in one consistent
 * database snapshot; its tree is `snapshot:<id>`. `ledgerTransferId` is the last ledger transfer the
 * snapshot saw, so a user's balances at it can be recomputed from their own history. Publication on
 * chain: `pubState` unpublished → pending (transaction sent) → published, or failed (retried).
 * A pending publication's transaction is stored signed before it is broadcast (chain, sender, nonce,
 * bytes), like a withdrawal's (docs/onchain.md "Withdrawals"): the hot wallet's nonces are shared,
 * so a nonce taken is always either mined or known to be replaced (docs/transparency.md "Publication").
 */
export const proofSnapshots = pgTable(
  'proof_snapshots',
  {
    id: serial('id').primaryKey(),
    epoch: integer('epoch'),
    trigger: text('trigger').notNull(),
    takenAt: timestamp('taken_at', { withTimezone: true, mode: 'date' }).notNull(),
    ledgerTransferId: bigint('ledger_transfer_id', { mode: 'bigint' }).notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    /** The rewards tree published with it (the epoch it was taken at the end of). */
    rewardsEpoch: integer('rewards_epoch'),
    pubState: text('pub_state').notNull().default('unpublished'),
    pubTxHash: text('pub_tx_hash'),
    pubBlockNumber: bigint('pub_block_number', { mode: 'bigint' }),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }),
    pubError: text('pub_error'),
    pubChainId: integer('pub_chain_id'),
    pubFromAddress: text('pub_from_address'),
    pubNonce: integer('pub_nonce'),
    pubSignedTx: text('pub_signed_tx'),
    /** When the books were read, by the database's clock: a user registered after it is not in the snapshot. */
    createdAt: createdAt(),
  },
  (t) => [
    index('proof_snapshots_epoch_idx').on(t.epoch),
    /** One nonce of the hot wallet, one publication (withdrawals hold the others). */
    uniqueIndex('proof_snapshots_pub_nonce_idx').on(t.pubChainId, t.pubFromAddress, t.pubNonce),
    check('proof_snapshots_trigger', sql`${t.trigger} in ('epoch', 'operator')`),
    check('proof_snapshots_pub_state', sql`${t.pubState} in ('unpublished', 'pending', 'published', 'failed')`),
  ],
);

/** Reserves and liabilities per asset at a snapshot (base units). */
export const proofSnapshotCovers = pgTable(
  'proof_snapshot_covers',
  {
    snapshotId: integer('snapshot_id')
      .notNull()
      .references(() => proofSnapshots.id, { onDelete: 'cascade' }),
    asset: text('asset').notNull(),
    reserves: units('reserves').notNull(),
    liabilities: units('liabilities').notNull(),
  },
  (t) => [primaryKey({ columns: [t.snapshotId, t.asset] })],
);

/**
 * The platform's reserve addresses: the hot wallet, the payment gateway and the treasury come from
 * the configuration; an admin registers cold ones with a signed ownership message.
 */
export const proofReserveAddresses = pgTable(
  'proof_reserve_addresses',
  {
    address: text('address').primaryKey(),
    role: text('role').notNull(),
    label: text('label').notNull(),
    message: text('message').notNull(),
    signature: text('signature').notNull(),
    signer: text('signer').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('proof_reserve_addresses_role', sql`${t.role} in ('hot_wallet', 'payment_gateway', 'treasury', 'cold')`)],
);

/** Each reserve address's balances at a snapshot's block, with the ownership proof as it stood then. */
export const proofSnapshotReserves = pgTable(
  'proof_snapshot_reserves',
  {
    snapshotId: integer('snapshot_id')
      .notNull()
      .references(() => proofSnapshots.id, { onDelete: 'cascade' }),
    address: text('address').notNull(),
    role: text('role').notNull(),
    label: text('label').notNull(),
    message: text('message').notNull(),
    signature: text('signature').notNull(),
    signer: text('signer').notNull(),
    nadi: units('nadi').notNull(),
    usdt: units('usdt').notNull(),
  },
  (t) => [primaryKey({ columns: [t.snapshotId, t.address] })],
);

/**
 * A settled epoch's rewards root (tree `rewards:<epoch>`): what the pools paid by kind (base units,
 * from the ledger) and the emission schedule's amount, so the root's sums can be held against both.
 */
export const proofRewards = pgTable('proof_rewards', {
  epoch: integer('epoch').primaryKey(),
  paid: jsonb('paid').$type<Record<string, string>>().notNull(),
  scheduled: units('scheduled').notNull(),
  createdAt: createdAt(),
});
