// The publication columns of proof_snapshots (docs/transparency.md, "Publication"): every state
// change is conditional on the state before it, so of several instances one moves a row on.
import { and, asc, eq, gte, inArray, isNull, not, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { proofSnapshots, proofTrees } from './schema.ts';

export type SnapshotRow = typeof proofSnapshots.$inferSelect;

/** A tree's root as stored: hash and base-unit sums in the tree's dimension order. */
export interface TreeRoot {
  dims: string[];
  hash: string;
  sums: bigint[];
}

/** What a publication puts on chain, read from the snapshot and its trees. */
export interface PublicationData {
  snapshot: SnapshotRow;
  liabilities: TreeRoot | null;
  rewards: TreeRoot | null;
}

const publishableStates = ['unpublished', 'failed'];

export async function findSnapshot(db: Db | Tx, id: number): Promise<SnapshotRow | null> {
  const rows = await db.select().from(proofSnapshots).where(eq(proofSnapshots.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function treeRoot(db: Db | Tx, scope: string): Promise<TreeRoot | null> {
  const rows = await db
    .select({ dims: proofTrees.dims, hash: proofTrees.rootHash, sums: proofTrees.rootSums })
    .from(proofTrees)
    .where(eq(proofTrees.scope, scope))
    .limit(1);
  const row = rows[0];
  return row ? { dims: row.dims, hash: row.hash, sums: row.sums.map((s) => BigInt(s)) } : null;
}

export async function publicationData(db: Db | Tx, id: number): Promise<PublicationData | null> {
  const snapshot = await findSnapshot(db, id);
  if (!snapshot) return null;
  const [liabilities, rewards] = await Promise.all([
    treeRoot(db, `snapshot:${id}`),
    snapshot.rewardsEpoch === null ? Promise.resolve(null) : treeRoot(db, `rewards:${snapshot.rewardsEpoch}`),
  ]);
  return { snapshot, liabilities, rewards };
}

/** Locks a snapshot that may be published (never sent, or failed) for signing; null otherwise. */
export async function lockPublishable(tx: Tx, id: number): Promise<SnapshotRow | null> {
  const rows = await tx
    .select()
    .from(proofSnapshots)
    .where(and(eq(proofSnapshots.id, id), inArray(proofSnapshots.pubState, publishableStates)))
    .for('update');
  return rows[0] ?? null;
}

export interface SignedPublication {
  chainId: number;
  fromAddress: string;
  nonce: number;
  txHash: string;
  signedTx: string;
}

/** unpublished/failed → pending with the signed transaction, before anything is broadcast. */
export async function storeSignedPublication(tx: Tx, id: number, signed: SignedPublication): Promise<void> {
  const rows = await tx
    .update(proofSnapshots)
    .set({
      pubState: 'pending',
      pubChainId: signed.chainId,
      pubFromAddress: signed.fromAddress,
      pubNonce: signed.nonce,
      pubTxHash: signed.txHash,
      pubSignedTx: signed.signedTx,
      pubBlockNumber: null,
      publishedAt: null,
      pubError: null,
    })
    .where(and(eq(proofSnapshots.id, id), inArray(proofSnapshots.pubState, publishableStates)))
    .returning({ id: proofSnapshots.id });
  if (rows.length !== 1) throw new Error(`snapshot ${id} was published by someone else under our lock`);
}

/** A refusal before anything was signed: unpublished/failed → failed with the reason. */
export async function markRefused(db: Db | Tx, id: number, error: string): Promise<void> {
  await db
    .update(proofSnapshots)
    .set({ pubState: 'failed', pubError: error.slice(0, 500) })
    .where(and(eq(proofSnapshots.id, id), inArray(proofSnapshots.pubState, publishableStates)));
}

/** Pending publications signed for this chain, lowest nonce first. */
export async function pendingPublications(db: Db, chainId: number, limit: number): Promise<SnapshotRow[]> {
  return db
    .select()
    .from(proofSnapshots)
    .where(and(eq(proofSnapshots.pubState, 'pending'), eq(proofSnapshots.pubChainId, chainId)))
    .orderBy(asc(proofSnapshots.pubNonce), asc(proofSnapshots.id))
    .limit(limit);
}

/** Nonces from `fromNonce` up held by this wallet's pending publications (the local gap filler leaves them). */
export async function publicationNoncesInFlight(db: Db, chainId: number, address: string, fromNonce: number): Promise<number[]> {
  const rows = await db
    .select({ nonce: proofSnapshots.pubNonce })
    .from(proofSnapshots)
    .where(
      and(
        eq(proofSnapshots.pubState, 'pending'),
        eq(proofSnapshots.pubChainId, chainId),
        eq(proofSnapshots.pubFromAddress, address),
        gte(proofSnapshots.pubNonce, fromNonce),
      ),
    );
  return rows.flatMap((r) => (r.nonce === null ? [] : [r.nonce]));
}

export type PublicationEnd = { state: 'published'; blockNumber: bigint; publishedAt: Date; txHash: string } | { state: 'failed'; error: string };

/**
 * pending (with this transaction) → published or failed. Answers false when another instance
 * settled it first. A publication found on chain under another transaction (`txHash`) records that one.
 */
export async function finishPublication(db: Db, id: number, txHash: string, end: PublicationEnd): Promise<boolean> {
  const set =
    end.state === 'published'
      ? { pubState: 'published', pubBlockNumber: end.blockNumber, publishedAt: end.publishedAt, pubTxHash: end.txHash, pubError: null }
      : { pubState: 'failed', pubError: end.error.slice(0, 500) };
  const rows = await db
    .update(proofSnapshots)
    .set(set)
    .where(and(eq(proofSnapshots.id, id), eq(proofSnapshots.pubState, 'pending'), eq(proofSnapshots.pubTxHash, txHash)))
    .returning({ id: proofSnapshots.id });
  return rows.length === 1;
}

/** unpublished/failed → published: the chain already holds this very publication (found, not sent by us now). */
export async function markFoundOnChain(db: Db, id: number, found: { txHash: string; blockNumber: bigint; publishedAt: Date }): Promise<boolean> {
  const rows = await db
    .update(proofSnapshots)
    .set({ pubState: 'published', pubTxHash: found.txHash, pubBlockNumber: found.blockNumber, publishedAt: found.publishedAt, pubError: null })
    .where(and(eq(proofSnapshots.id, id), inArray(proofSnapshots.pubState, publishableStates)))
    .returning({ id: proofSnapshots.id });
  return rows.length === 1;
}

/** A failure the job does not retry by itself (the contract holds other data for the id). */
export const conflictPrefix = 'conflict:';

/**
 * Epoch snapshots the job publishes by itself, oldest first: never sent, or failed for a reason a
 * retry can mend (not a conflict with what the contract holds); `skipped`: those waiting out a retry delay.
 */
export async function epochSnapshotsToPublish(db: Db, limit: number, skipped: number[] = []): Promise<number[]> {
  const retryable: SQL = or(isNull(proofSnapshots.pubError), not(sql`starts_with(${proofSnapshots.pubError}, ${conflictPrefix})`))!;
  const rows = await db
    .select({ id: proofSnapshots.id })
    .from(proofSnapshots)
    .where(
      and(
        eq(proofSnapshots.trigger, 'epoch'),
        or(eq(proofSnapshots.pubState, 'unpublished'), and(eq(proofSnapshots.pubState, 'failed'), retryable)),
        skipped.length > 0 ? notInArray(proofSnapshots.id, skipped) : undefined,
      ),
    )
    .orderBy(asc(proofSnapshots.id))
    .limit(limit);
  return rows.map((r) => r.id);
}
