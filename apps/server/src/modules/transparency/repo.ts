// SQL on the transparency module's own tables (schema.ts): trees and their leaf chunks, snapshots with
// their covers and reserves, and the epochs' rewards rows (docs/transparency.md).
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { lockKeys } from '../../lib/leader-lock.ts';
import { nodeBytes, toHex } from '@nadi/proof/tree';
import { ownerBytes, type BuiltTree } from './build.ts';

/** Leaves per stored chunk: 4 MiB of a liabilities tree's leaves (64 bytes each), 6 MiB of a rewards tree's. */
export const chunkLeaves = 65_536;

/** Serialises the writers of trees, snapshots and rewards rows (instances and the operator's requests), to the commit. */
export async function lockWrites(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${lockKeys.transparencyWrite})`);
}

/** A snapshot id drawn before its tree is built (the id is part of the tree's scope, hence of every key). */
export async function nextSnapshotId(db: Db | Tx): Promise<number> {
  const row = rowsOf<{ id: number }>(await db.execute(sql`select nextval(pg_get_serial_sequence('proof_snapshots', 'id'))::int as id`))[0];
  return Number(row?.id);
}

/** Writes a tree: its row, then its leaves and owners in chunks of `chunkLeaves`. */
export async function insertTree(tx: Tx, scope: string, dims: readonly string[], built: BuiltTree): Promise<void> {
  await tx.execute(sql`
    insert into proof_trees (scope, dims, leaf_count, users, root_hash, root_sums)
    values (${scope}, ${`{${dims.join(',')}}`}::text[], ${built.leafCount}, ${built.users}, ${toHex(built.root.hash)},
            ${`{${built.root.sums.join(',')}}`}::numeric[])`);
  const size = nodeBytes(built.dims);
  for (let chunk = 0, first = 0; first < built.leafCount; chunk += 1, first += chunkLeaves) {
    const last = Math.min(built.leafCount, first + chunkLeaves);
    const leaves = Buffer.from(built.leaves.buffer, built.leaves.byteOffset + first * size, (last - first) * size);
    const owners = Buffer.from(built.owners.buffer, built.owners.byteOffset + first * ownerBytes, (last - first) * ownerBytes);
    await tx.execute(sql`insert into proof_tree_chunks (scope, chunk, first_leaf, leaves, owners)
                         values (${scope}, ${chunk}, ${first}, ${leaves}::bytea, ${owners}::bytea)`);
  }
}

export interface TreeRow {
  scope: string;
  dims: string[];
  leafCount: number;
  users: number;
  rootHash: string;
  rootSums: bigint[];
  createdAt: Date;
}

export async function findTree(db: Db | Tx, scope: string): Promise<TreeRow | null> {
  const row = rowsOf<{ scope: string; dims: string[]; leaf_count: number; users: number; root_hash: string; root_sums: string[]; created_at: Date | string }>(
    await db.execute(sql`select scope, dims, leaf_count, users, root_hash, root_sums::text[] as root_sums, created_at from proof_trees where scope = ${scope}`),
  )[0];
  return row
    ? {
        scope: row.scope,
        dims: row.dims,
        leafCount: Number(row.leaf_count),
        users: Number(row.users),
        rootHash: row.root_hash,
        rootSums: row.root_sums.map((s) => BigInt(s)),
        createdAt: new Date(row.created_at),
      }
    : null;
}

/** A tree's chunks one by one, in leaf order (each read on its own: a million users' leaves never sit in one result). */
export async function* treeChunks(db: Db, scope: string): AsyncGenerator<{ firstLeaf: number; leaves: Uint8Array; owners: Uint8Array }> {
  const chunks = rowsOf<{ chunk: number }>(await db.execute(sql`select chunk from proof_tree_chunks where scope = ${scope} order by chunk`));
  for (const { chunk } of chunks) {
    const row = rowsOf<{ first_leaf: number; leaves: Uint8Array; owners: Uint8Array }>(
      await db.execute(sql`select first_leaf, leaves, owners from proof_tree_chunks where scope = ${scope} and chunk = ${chunk}`),
    )[0];
    if (row) yield { firstLeaf: Number(row.first_leaf), leaves: new Uint8Array(row.leaves), owners: new Uint8Array(row.owners) };
  }
}

export interface NewSnapshot {
  id: number;
  epoch: number | null;
  trigger: 'epoch' | 'operator';
  takenAt: Date;
  ledgerTransferId: bigint;
  rewardsEpoch: number | null;
  /** When the books were read, by the database's clock (users' registration times are on it too). */
  readAt: Date;
}

/** The snapshot's row; its block number is written with its covers, once the reserves are read. */
export async function insertSnapshot(tx: Tx, s: NewSnapshot): Promise<void> {
  await tx.execute(sql`
    insert into proof_snapshots (id, epoch, trigger, taken_at, ledger_transfer_id, block_number, rewards_epoch, created_at)
    values (${s.id}, ${s.epoch}, ${s.trigger}, ${s.takenAt}, ${s.ledgerTransferId.toString()}::bigint, 0, ${s.rewardsEpoch}, ${s.readAt})`);
}

/** Takes out a snapshot whose reserves could not be read, with its tree (and the tree's chunks). */
export async function deleteSnapshot(db: Db, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`delete from proof_snapshots where id = ${id}`);
    await tx.execute(sql`delete from proof_trees where scope = ${`snapshot:${id}`}`);
  });
}

export async function writeCovers(db: Db, id: number, blockNumber: bigint, covers: { asset: string; reserves: bigint; liabilities: bigint }[]): Promise<void> {
  await db.transaction(async (tx) => {
    for (const c of covers) {
      await tx.execute(sql`insert into proof_snapshot_covers (snapshot_id, asset, reserves, liabilities)
                           values (${id}, ${c.asset}, ${c.reserves.toString()}::numeric, ${c.liabilities.toString()}::numeric)`);
    }
    await tx.execute(sql`update proof_snapshots set block_number = ${blockNumber.toString()}::bigint where id = ${id}`);
  });
}

export async function hasEpochSnapshot(db: Db | Tx, epoch: number): Promise<boolean> {
  const row = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from proof_snapshots where trigger = 'epoch' and epoch = ${epoch}`))[0];
  return Number(row?.n ?? 0) > 0;
}

/** When the newest snapshot was taken (null: none yet). */
export async function lastSnapshotAt(db: Db | Tx): Promise<Date | null> {
  const row = rowsOf<{ at: Date | string | null }>(await db.execute(sql`select max(taken_at) as at from proof_snapshots`))[0];
  return row?.at ? new Date(row.at) : null;
}

export interface SnapshotRow {
  id: number;
  epoch: number | null;
  trigger: 'epoch' | 'operator';
  takenAt: Date;
  ledgerTransferId: bigint;
  blockNumber: bigint;
  rewardsEpoch: number | null;
  pubState: 'unpublished' | 'pending' | 'published' | 'failed';
  pubTxHash: string | null;
  pubBlockNumber: bigint | null;
  publishedAt: Date | null;
  users: number;
  leafCount: number;
  rootHash: string;
  rootSums: bigint[];
  rewardsRoot: string | null;
  /** When the books were read, by the database's clock (the row's created_at). */
  readAt: Date;
}

interface RawSnapshot {
  id: number;
  epoch: number | null;
  trigger: 'epoch' | 'operator';
  taken_at: Date | string;
  ledger_transfer_id: string;
  block_number: string;
  rewards_epoch: number | null;
  pub_state: SnapshotRow['pubState'];
  pub_tx_hash: string | null;
  pub_block_number: string | null;
  published_at: Date | string | null;
  users: number;
  leaf_count: number;
  root_hash: string;
  root_sums: string[];
  rewards_root: string | null;
  created_at: Date | string;
}

const snapshotSelect = sql`
  select s.id, s.epoch, s.trigger, s.taken_at, s.ledger_transfer_id::text as ledger_transfer_id, s.block_number::text as block_number,
         s.rewards_epoch, s.pub_state, s.pub_tx_hash, s.pub_block_number::text as pub_block_number, s.published_at,
         t.users, t.leaf_count, t.root_hash, t.root_sums::text[] as root_sums, r.root_hash as rewards_root, s.created_at
    from proof_snapshots s
    join proof_trees t on t.scope = 'snapshot:' || s.id
    left join proof_trees r on r.scope = 'rewards:' || s.rewards_epoch`;

function snapshotOf(r: RawSnapshot): SnapshotRow {
  return {
    id: Number(r.id),
    epoch: r.epoch === null ? null : Number(r.epoch),
    trigger: r.trigger,
    takenAt: new Date(r.taken_at),
    ledgerTransferId: BigInt(r.ledger_transfer_id),
    blockNumber: BigInt(r.block_number),
    rewardsEpoch: r.rewards_epoch === null ? null : Number(r.rewards_epoch),
    pubState: r.pub_state,
    pubTxHash: r.pub_tx_hash,
    pubBlockNumber: r.pub_block_number === null ? null : BigInt(r.pub_block_number),
    publishedAt: r.published_at === null ? null : new Date(r.published_at),
    users: Number(r.users),
    leafCount: Number(r.leaf_count),
    rootHash: r.root_hash,
    rootSums: r.root_sums.map((s) => BigInt(s)),
    rewardsRoot: r.rewards_root,
    readAt: new Date(r.created_at),
  };
}

export async function findSnapshot(db: Db | Tx, id: number): Promise<SnapshotRow | null> {
  const row = rowsOf<RawSnapshot>(await db.execute(sql`${snapshotSelect} where s.id = ${id}`))[0];
  return row ? snapshotOf(row) : null;
}

export async function latestSnapshot(db: Db | Tx): Promise<SnapshotRow | null> {
  const row = rowsOf<RawSnapshot>(await db.execute(sql`${snapshotSelect} order by s.id desc limit 1`))[0];
  return row ? snapshotOf(row) : null;
}

/** The snapshot that carries an epoch's rewards root (its publication is the rewards' too). */
export async function snapshotOfRewards(db: Db | Tx, epoch: number): Promise<SnapshotRow | null> {
  const row = rowsOf<RawSnapshot>(await db.execute(sql`${snapshotSelect} where s.rewards_epoch = ${epoch} order by s.id desc limit 1`))[0];
  return row ? snapshotOf(row) : null;
}

export async function snapshotPage(db: Db, page: number, pageSize: number): Promise<{ rows: SnapshotRow[]; total: number }> {
  const rows = rowsOf<RawSnapshot>(await db.execute(sql`${snapshotSelect} order by s.id desc limit ${pageSize} offset ${(page - 1) * pageSize}`));
  const total = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from proof_snapshots`))[0];
  return { rows: rows.map(snapshotOf), total: Number(total?.n ?? 0) };
}

export interface CoverRow {
  snapshotId: number;
  asset: 'NADI' | 'USDT';
  reserves: bigint;
  liabilities: bigint;
  takenAt: Date;
}

/** The covers of some snapshots (null: the latest `limit` snapshots'), oldest snapshot first. */
export async function coversOf(db: Db | Tx, ids: number[] | null, limit = 0): Promise<CoverRow[]> {
  if (ids !== null && ids.length === 0) return [];
  const which =
    ids === null
      ? sql`c.snapshot_id in (select id from proof_snapshots order by id desc limit ${limit})`
      : sql`c.snapshot_id = any(${`{${ids.join(',')}}`}::int[])`;
  return rowsOf<{ snapshot_id: number; asset: 'NADI' | 'USDT'; reserves: string; liabilities: string; taken_at: Date | string }>(
    await db.execute(sql`select c.snapshot_id, c.asset, c.reserves::text as reserves, c.liabilities::text as liabilities, s.taken_at
                           from proof_snapshot_covers c join proof_snapshots s on s.id = c.snapshot_id
                          where ${which} order by c.snapshot_id, c.asset`),
  ).map((r) => ({
    snapshotId: Number(r.snapshot_id),
    asset: r.asset,
    reserves: BigInt(r.reserves),
    liabilities: BigInt(r.liabilities),
    takenAt: new Date(r.taken_at),
  }));
}

export async function reservesOf(db: Db | Tx, snapshotId: number) {
  return rowsOf<{ address: string; role: string; label: string; message: string; signature: string; signer: string; nadi: string; usdt: string }>(
    await db.execute(sql`select address, role, label, message, signature, signer, nadi::text as nadi, usdt::text as usdt
                           from proof_snapshot_reserves where snapshot_id = ${snapshotId} order by role, address`),
  );
}

export interface RewardsRow {
  epoch: number;
  paid: Record<string, string>;
  scheduled: bigint;
}

export async function insertRewards(tx: Tx, epoch: number, paid: Record<string, string>, scheduled: bigint): Promise<void> {
  await tx.execute(sql`insert into proof_rewards (epoch, paid, scheduled) values (${epoch}, ${JSON.stringify(paid)}::jsonb, ${scheduled.toString()}::numeric)`);
}

export async function findRewards(db: Db | Tx, epoch: number): Promise<RewardsRow | null> {
  const row = rowsOf<{ epoch: number; paid: string; scheduled: string }>(
    await db.execute(sql`select epoch, paid::text as paid, scheduled::text as scheduled from proof_rewards where epoch = ${epoch}`),
  )[0];
  return row ? { epoch: Number(row.epoch), paid: JSON.parse(row.paid) as Record<string, string>, scheduled: BigInt(row.scheduled) } : null;
}

/** The epochs that have a rewards row. */
export async function rewardsEpochs(db: Db | Tx): Promise<Set<number>> {
  return new Set(rowsOf<{ epoch: number }>(await db.execute(sql`select epoch from proof_rewards`)).map((r) => Number(r.epoch)));
}

/** The database's clock at the start of the caller's transaction. */
export async function databaseNow(db: Db | Tx): Promise<Date> {
  const row = rowsOf<{ at: Date | string }>(await db.execute(sql`select now() as at`))[0];
  return new Date(row?.at ?? Date.now());
}
