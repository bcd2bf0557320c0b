// Serving a user's proofs (docs/transparency.md, "Checking your own figures"). A tree is read from its
// chunks once and kept in memory (the two most recently used per instance): its levels rebuilt by
// packages/proof, and an index from user id to leaves, so a proof is a few array reads. Beside the
// proof the user gets `expected`, their figure recomputed from ANOTHER source than the tree: for a
// balance, their own journal up to the snapshot's last transfer and their income records; for income,
// their income records of the epoch.
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { rewardKinds, type RewardKind } from '@nadi/api/transparency';
import { nodeJson, proofOf, type ProofJson } from '@nadi/proof/proof';
import { buildTreeInSlices, nodeBytes, toHex, treeRoot, type SumTree } from '@nadi/proof/tree';
import type { z } from 'zod';
import type { balanceProof, incomeProof } from '@nadi/api/transparency';
import type { AppDeps } from '../../deps.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { userBalancesAt, userSystemFlowsAt } from '../ledger/index.ts';
import { userMiningIncomeOfEpochs } from '../mining/index.ts';
import { userNodeIncomeOfEpoch } from '../node/index.ts';
import { userInterestOfEpochs } from '../pledge/index.ts';
import { userTeamIncomeOfEpoch } from '../team/index.ts';
import { findUserById } from '../user/index.ts';
import { emptyRoot, ownerBytes, parentsPerSlice } from './build.ts';
import { coversOf, findSnapshot, findTree, latestSnapshot, treeChunks, type SnapshotRow } from './repo.ts';
import { saltOf } from './salts.ts';
import { rewardsInfoOf, snapshotInfoOf } from './views.ts';

/** Trees kept in memory per instance (a million users' liabilities tree is about 260 MB with its levels). */
export const treesCachedMax = 2;
/** Widest span of user ids indexed with a flat offsets array (4 bytes per id); wider spans use a Map. */
const flatIndexSpanMax = 16_000_000;

/** A tree in memory: its levels, and each user's leaves in part order. */
export interface LoadedTree {
  scope: string;
  dims: string[];
  leafCount: number;
  tree: SumTree | null;
  /** Whether the root rebuilt from the stored leaves is the root the tree row records. */
  isRootRecorded: boolean;
  leavesOf(userId: number): number[];
}

/** The user → leaves index: leaf positions grouped by user id (CSR offsets over the id span, or a Map). */
function indexOwners(owners: Uint8Array, leafCount: number): (userId: number) => number[] {
  const view = new DataView(owners.buffer, owners.byteOffset, owners.byteLength);
  const userOf = (leaf: number) => view.getUint32(leaf * ownerBytes);
  const partOf = (leaf: number) => owners[leaf * ownerBytes + 4]!;
  const byPart = (leaves: number[]) => leaves.sort((a, b) => partOf(a) - partOf(b));
  let max = 0;
  for (let i = 0; i < leafCount; i += 1) max = Math.max(max, userOf(i));
  if (max > flatIndexSpanMax) {
    const map = new Map<number, number[]>();
    for (let i = 0; i < leafCount; i += 1) {
      const list = map.get(userOf(i));
      if (list) list.push(i);
      else map.set(userOf(i), [i]);
    }
    return (userId) => byPart([...(map.get(userId) ?? [])]);
  }
  const offsets = new Uint32Array(max + 2);
  for (let i = 0; i < leafCount; i += 1) offsets[userOf(i) + 1]! += 1;
  for (let u = 1; u < offsets.length; u += 1) offsets[u]! += offsets[u - 1]!;
  const fill = offsets.slice(0, max + 1);
  const leaves = new Uint32Array(leafCount);
  for (let i = 0; i < leafCount; i += 1) leaves[fill[userOf(i)]!++] = i;
  return (userId) => (userId < 0 || userId > max ? [] : byPart(Array.from(leaves.subarray(offsets[userId]!, offsets[userId + 1]!))));
}

async function loadTree(db: Db, scope: string, log: Pick<FastifyBaseLogger, 'error'>): Promise<LoadedTree> {
  const row = await findTree(db, scope);
  if (!row) throw new AppError('NOT_FOUND');
  const size = nodeBytes(row.dims.length);
  const leaves = new Uint8Array(row.leafCount * size);
  const owners = new Uint8Array(row.leafCount * ownerBytes);
  for await (const chunk of treeChunks(db, scope)) {
    leaves.set(chunk.leaves, chunk.firstLeaf * size);
    owners.set(chunk.owners, chunk.firstLeaf * ownerBytes);
  }
  // In slices: the first proof asked of a million-user tree must not stall every other request.
  const tree = row.leafCount === 0 ? null : await buildTreeInSlices(leaves, row.dims.length, parentsPerSlice, yieldToLoop);
  const root = tree ? treeRoot(tree) : emptyRoot(row.dims.length);
  const isRootRecorded = toHex(root.hash) === row.rootHash && root.sums.every((s, d) => s === row.rootSums[d]);
  // Served anyway: each user's own check then fails against the published root, which is the point.
  if (!isRootRecorded) log.error({ scope, recorded: row.rootHash, rebuilt: toHex(root.hash) }, 'transparency: stored leaves do not give the recorded root');
  return { scope, dims: row.dims, leafCount: row.leafCount, tree, isRootRecorded, leavesOf: indexOwners(owners, row.leafCount) };
}

/** The most recently used trees of this instance; a tree being loaded is shared by every request waiting for it. */
export class TreeCache {
  private readonly trees = new Map<string, Promise<LoadedTree>>();
  private readonly db: Db;
  private readonly log: Pick<FastifyBaseLogger, 'error'>;
  private readonly max: number;

  constructor(db: Db, log: Pick<FastifyBaseLogger, 'error'>, max = treesCachedMax) {
    this.db = db;
    this.log = log;
    this.max = max;
  }

  get(scope: string): Promise<LoadedTree> {
    const cached = this.trees.get(scope);
    if (cached) {
      this.trees.delete(scope);
      this.trees.set(scope, cached);
      return cached;
    }
    const loading = loadTree(this.db, scope, this.log);
    loading.catch(() => this.trees.delete(scope));
    this.trees.set(scope, loading);
    while (this.trees.size > this.max) this.trees.delete(this.trees.keys().next().value!);
    return loading;
  }
}

/** A user's proof in a loaded tree: their leaves (none when the tree has none of theirs) and the paths up. */
export function proofIn(loaded: LoadedTree, userId: number, salt: Uint8Array | null): ProofJson {
  const saltHex = salt ? toHex(salt) : '0x';
  if (!loaded.tree) {
    return { scope: loaded.scope, dims: loaded.dims, user_id: userId, salt: saltHex, parts: [], root: nodeJson(emptyRoot(loaded.dims.length)), leaf_count: 0 };
  }
  const proof = proofOf(loaded.tree, { scope: loaded.scope, dims: loaded.dims, userId, salt: salt ?? new Uint8Array(0), indexes: loaded.leavesOf(userId) });
  return { ...proof, salt: saltHex };
}

/**
 * A user's liabilities at a snapshot, from their own history rather than the tree's sources: fund and
 * trade balances after the snapshot's last transfer (the journal's after-balances), savings principal
 * as what they moved into and out of `pledged`, and vesting and savings interest as what settled
 * epochs up to the snapshot's credited them less what they claimed by that transfer.
 */
export async function expectedBalance(db: Db, userId: number, s: Pick<SnapshotRow, 'ledgerTransferId' | 'epoch'>): Promise<bigint[]> {
  const upTo = s.ledgerTransferId;
  const [balances, flows, mining, interest] = await Promise.all([
    userBalancesAt(db, userId, upTo),
    userSystemFlowsAt(db, userId, ['pledged', 'vesting', 'savings_interest'], upTo),
    s.epoch === null ? { immediate: 0n, locked: 0n } : userMiningIncomeOfEpochs(db, userId, 0, s.epoch),
    s.epoch === null ? 0n : userInterestOfEpochs(db, userId, 0, s.epoch),
  ]);
  const flow = (kind: string) => flows.get(kind) ?? { toUser: 0n, fromUser: 0n };
  const pledged = flow('pledged').fromUser - flow('pledged').toUser;
  const vesting = mining.locked - flow('vesting').toUser + flow('vesting').fromUser;
  const unclaimed = interest - flow('savings_interest').toUser + flow('savings_interest').fromUser;
  return [balances.NADI + pledged + vesting + unclaimed, balances.USDT];
}

/** A user's income of an epoch by kind (rewardKinds order), from their income records. */
export async function expectedIncome(db: Db, userId: number, epoch: number): Promise<bigint[]> {
  const [mining, savings, node, team] = await Promise.all([
    userMiningIncomeOfEpochs(db, userId, epoch, epoch),
    userInterestOfEpochs(db, userId, epoch, epoch),
    userNodeIncomeOfEpoch(db, userId, epoch),
    userTeamIncomeOfEpoch(db, userId, epoch),
  ]);
  const byKind: Record<RewardKind, bigint> = { mining: mining.immediate + mining.locked, savings, node, team };
  return rewardKinds.map((k) => byKind[k]);
}

/**
 * The caller's liabilities proof in a snapshot (the latest by default). A user who registered after the
 * snapshot was taken is PROOF_NOT_INCLUDED; any other user not in the tree gets a proof without leaves,
 * which their own check reports as "not included" (an honest tree leaves nobody out).
 */
export async function balanceProofOf(deps: AppDeps, cache: TreeCache, userId: number, snapshotId: number | undefined): Promise<z.output<typeof balanceProof>> {
  const snapshot = snapshotId === undefined ? await latestSnapshot(deps.db) : await findSnapshot(deps.db, snapshotId);
  if (!snapshot) throw new AppError('NOT_FOUND');
  const loaded = await cache.get(`snapshot:${snapshot.id}`);
  if (loaded.leavesOf(userId).length === 0) {
    const user = await findUserById(deps.db, userId);
    if (!user || user.createdAt > snapshot.readAt) throw new AppError('PROOF_NOT_INCLUDED');
  }
  const [salt, expected, covers] = await Promise.all([saltOf(deps.db, userId), expectedBalance(deps.db, userId, snapshot), coversOf(deps.db, [snapshot.id])]);
  return { snapshot: snapshotInfoOf(deps.settings, snapshot, covers), proof: proofIn(loaded, userId, salt), expected: expected.map(String) };
}

/** The caller's income proof for a settled epoch; PROOF_NO_INCOME when they earned nothing in it. */
export async function incomeProofOf(deps: AppDeps, cache: TreeCache, userId: number, epoch: number): Promise<z.output<typeof incomeProof>> {
  const rewards = await rewardsInfoOf(deps, epoch);
  const [loaded, expected] = await Promise.all([cache.get(`rewards:${epoch}`), expectedIncome(deps.db, userId, epoch)]);
  if (loaded.leavesOf(userId).length === 0 && expected.every((x) => x === 0n)) throw new AppError('PROOF_NO_INCOME');
  const salt = await saltOf(deps.db, userId);
  return { rewards, proof: proofIn(loaded, userId, salt), expected: expected.map(String) };
}
