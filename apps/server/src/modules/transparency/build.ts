// Building a tree from every user's sums (docs/transparency.md, "How a tree is built"): each user's
// amounts are split into 1 to 3 random parts, each part is a leaf under the user's salted key, the
// leaves are put in a random order, and packages/proof builds the levels above them (in slices). Whose each leaf
// is (`owners`: per leaf a u32 user id and a u8 part number, big-endian) is kept beside the leaves and
// never published. Sized for a million users: typed arrays, one pass over the users, and a pause for
// the event loop every few thousand users so the instance keeps answering requests meanwhile.
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { buildTreeInSlices, hashBytes, leafNode, nodeBytes, splitAmounts, treeRoot, userKey, writeNode, type SumNode, type SumTree } from '@nadi/proof/tree';
import { shuffledOrder, type TreeRandom } from './random.ts';

/** Bytes of a leaf's owner entry: the user id (u32) and the part number (u8). */
export const ownerBytes = 5;
/** A user's amounts are split into 1 to this many leaves. */
export const partsMax = 3;
/** Users between two pauses for the event loop while leaves are hashed. */
const usersPerSlice = 4_096;
/** Parents hashed between two pauses for the event loop while the levels are built. */
export const parentsPerSlice = 8_192;

/**
 * Sums per user and dimension, gathered from several sources (one aggregate query each) before a tree
 * is built: a Map from user id to a slot, and one column of sums per dimension.
 */
export class UserSums {
  private readonly slots = new Map<number, number>();
  private readonly ids: number[] = [];
  private readonly columns: bigint[][];
  readonly dims: number;

  constructor(dims: number) {
    this.dims = dims;
    this.columns = Array.from({ length: dims }, () => []);
  }

  get size(): number {
    return this.ids.length;
  }

  /** The user's slot, made (all sums zero) when the user is new. */
  include(userId: number): number {
    let slot = this.slots.get(userId);
    if (slot === undefined) {
      if (!Number.isInteger(userId) || userId < 1 || userId > 0xffffffff) throw new RangeError(`user id ${userId}`);
      slot = this.ids.length;
      this.slots.set(userId, slot);
      this.ids.push(userId);
      for (const column of this.columns) column.push(0n);
    }
    return slot;
  }

  add(userId: number, dim: number, amount: bigint): void {
    const column = this.columns[dim];
    if (!column) throw new RangeError(`dimension ${dim}`);
    const slot = this.include(userId);
    column[slot] = column[slot]! + amount;
  }

  /** Adds one dimension's rows of an aggregate query ({user_id, amount} as numeric text). */
  addRows(dim: number, rows: readonly { user_id: number; amount: string }[]): void {
    for (const r of rows) this.add(Number(r.user_id), dim, BigInt(r.amount));
  }

  /** The users in id order, with their sums in that order (one array per dimension). */
  sorted(): { userIds: Uint32Array; sums: bigint[][] } {
    const order = this.ids.map((_, slot) => slot).sort((a, b) => this.ids[a]! - this.ids[b]!);
    const userIds = new Uint32Array(order.length);
    order.forEach((slot, i) => (userIds[i] = this.ids[slot]!));
    return { userIds, sums: this.columns.map((column) => order.map((slot) => column[slot]!)) };
  }

  totals(): bigint[] {
    return this.columns.map((column) => column.reduce((s, x) => s + x, 0n));
  }
}

export interface BuiltTree {
  dims: number;
  /** Null when no user has a leaf (see emptyRoot). */
  tree: SumTree | null;
  leaves: Uint8Array;
  owners: Uint8Array;
  leafCount: number;
  users: number;
  root: SumNode;
}

/** The root of a tree without leaves (an epoch nobody earned in): a zero hash and zero sums. */
export function emptyRoot(dims: number): SumNode {
  return { hash: new Uint8Array(hashBytes), sums: Array.from({ length: dims }, () => 0n) };
}

/**
 * Builds the tree of `scope` over users (ascending ids) with their sums and salts (32 bytes each, in
 * the users' order). Every user gets at least one leaf, zero sums included.
 */
export async function buildUserTree(input: {
  scope: string;
  dims: number;
  userIds: Uint32Array;
  sums: bigint[][];
  salts: Uint8Array;
  random: TreeRandom;
}): Promise<BuiltTree> {
  const { scope, dims, userIds, sums, salts, random } = input;
  const users = userIds.length;
  const parts = new Uint8Array(users);
  let leafCount = 0;
  for (let u = 0; u < users; u += 1) {
    parts[u] = 1 + random.below(partsMax);
    leafCount += parts[u]!;
  }
  const size = nodeBytes(dims);
  const leaves = new Uint8Array(leafCount * size);
  const owners = new Uint8Array(leafCount * ownerBytes);
  const ownerView = new DataView(owners.buffer);
  const order = shuffledOrder(leafCount, random);
  let next = 0;
  for (let u = 0; u < users; u += 1) {
    if (u > 0 && u % usersPerSlice === 0) await yieldToLoop();
    const userId = userIds[u]!;
    const key = userKey(salts.subarray(u * 32, u * 32 + 32), scope, userId);
    const split = splitAmounts(
      sums.map((column) => column[u]!),
      parts[u]!,
      (bound) => random.upTo(bound),
    );
    split.forEach((partSums, part) => {
      const at = order[next]!;
      next += 1;
      writeNode(leaves, at, leafNode(key, part, partSums));
      ownerView.setUint32(at * ownerBytes, userId);
      owners[at * ownerBytes + 4] = part;
    });
  }
  const tree = leafCount === 0 ? null : await buildTreeInSlices(leaves, dims, parentsPerSlice, yieldToLoop);
  return { dims, tree, leaves, owners, leafCount, users, root: tree ? treeRoot(tree) : emptyRoot(dims) };
}
