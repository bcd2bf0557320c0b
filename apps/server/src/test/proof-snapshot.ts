// Liabilities snapshots written straight into the transparency tables, for tests of what happens to
// a snapshot after it is taken (publication, reserves): trees built with packages/proof over made-up
// users, without the snapshot job.
import { randomBytes } from 'node:crypto';
import { liabilityDims, rewardKinds } from '@nadi/api/transparency';
import { buildTree, leafNode, nodeBytes, toHex, treeRoot, userKey, writeNode, type SumTree } from '@nadi/proof/tree';
import type { Db } from '../db/client.ts';
import { proofRewards, proofSnapshots, proofTreeChunks, proofTrees } from '../modules/transparency/schema.ts';

export interface TreeInput {
  /** One leaf per entry (part 0), in this order; sums in the tree's dimension order. */
  leaves: { userId: number; sums: bigint[] }[];
}

function treeOf(scope: string, dims: readonly string[], input: TreeInput): { tree: SumTree; leaves: Uint8Array } {
  const size = nodeBytes(dims.length);
  const leaves = new Uint8Array(input.leaves.length * size);
  input.leaves.forEach((leaf, i) => writeNode(leaves, i, leafNode(userKey(randomBytes(32), scope, leaf.userId), 0, leaf.sums)));
  return { tree: buildTree(leaves, dims.length), leaves };
}

async function insertTree(db: Db, scope: string, dims: readonly string[], input: TreeInput): Promise<SumTree> {
  const { tree, leaves } = treeOf(scope, dims, input);
  const root = treeRoot(tree);
  await db.insert(proofTrees).values({
    scope,
    dims: [...dims],
    leafCount: input.leaves.length,
    users: new Set(input.leaves.map((l) => l.userId)).size,
    rootHash: toHex(root.hash),
    rootSums: root.sums,
  });
  const owners = new Uint8Array(input.leaves.length * 5);
  input.leaves.forEach((leaf, i) => new DataView(owners.buffer).setUint32(i * 5, leaf.userId));
  await db.insert(proofTreeChunks).values({ scope, chunk: 0, firstLeaf: 0, leaves, owners });
  return tree;
}

export interface InsertedSnapshot {
  id: number;
  tree: SumTree;
  rewardsTree: SumTree | null;
}

/** A snapshot row with its liabilities tree and, when given, the rewards tree of its epoch. */
export async function insertProofSnapshot(
  db: Db,
  input: {
    trigger: 'epoch' | 'operator';
    epoch: number | null;
    blockNumber?: bigint;
    liabilities: TreeInput;
    rewards?: TreeInput;
  },
): Promise<InsertedSnapshot> {
  const [row] = await db
    .insert(proofSnapshots)
    .values({
      epoch: input.epoch,
      trigger: input.trigger,
      takenAt: new Date('2026-11-22T08:00:00.000Z'),
      ledgerTransferId: 0n,
      blockNumber: input.blockNumber ?? 0n,
      rewardsEpoch: input.rewards ? input.epoch : null,
    })
    .returning({ id: proofSnapshots.id });
  const id = row!.id;
  const tree = await insertTree(db, `snapshot:${id}`, liabilityDims, input.liabilities);
  let rewardsTree: SumTree | null = null;
  if (input.rewards) {
    if (input.epoch === null) throw new Error('a rewards tree needs an epoch');
    rewardsTree = await insertTree(db, `rewards:${input.epoch}`, rewardKinds, input.rewards);
    const paid = Object.fromEntries(rewardKinds.map((kind, d) => [kind, input.rewards!.leaves.reduce((a, l) => a + l.sums[d]!, 0n).toString()]));
    await db.insert(proofRewards).values({ epoch: input.epoch, paid, scheduled: 10n ** 24n });
  }
  return { id, tree, rewardsTree };
}
