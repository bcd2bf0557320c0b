// The Merkle sum tree behind the proofs of reserves and rewards (docs/transparency.md). One code
// path for the server that builds it, the phone app that checks a user's path in the browser and
// the independent verifier that rebuilds the whole tree.
//
// A node is a SHA-256 hash and a vector of sums, one per dimension (assets for liabilities, income
// kinds for rewards). Each sum is a signed 128-bit integer in base units, big-endian: signed so that
// a negative leaf can be written down at all, and therefore caught by whoever checks. Levels pair
// nodes left to right; an odd last node is carried up unchanged (never duplicated: that would count
// its sums twice).
//
//   user key = SHA-256("nadi/proof/user" ‖ salt ‖ scope ‖ user id as u64)
//   leaf     = SHA-256(0x00 ‖ user key ‖ part as u32 ‖ sums)
//   node     = SHA-256(0x01 ‖ left hash ‖ left sums ‖ right hash ‖ right sums), sums = left + right
//
// The salt is the user's secret: without it a leaf says nothing about whose it is, and the scope
// (the snapshot or epoch) makes the same user's leaves in two trees unlinkable.
import { sha256 } from '@noble/hashes/sha256';

export const hashBytes = 32;
/** Bytes per sum: a signed 128-bit integer, big-endian. */
export const sumBytes = 16;
const sumMax = (1n << 127n) - 1n;
const sumMin = -(1n << 127n);
const leafTag = 0x00;
const nodeTag = 0x01;
const userTag = new TextEncoder().encode('nadi/proof/user');

/** A tree node: its hash and its sums (base units, one per dimension). */
export interface SumNode {
  hash: Uint8Array;
  sums: bigint[];
}

/** Bytes of one node in a flat level (and in the published tree file): hash, then each sum. */
export function nodeBytes(dims: number): number {
  return hashBytes + sumBytes * dims;
}

function writeSum(out: Uint8Array, offset: number, value: bigint): void {
  if (value > sumMax || value < sumMin) throw new RangeError(`sum out of the 128-bit range: ${value}`);
  let v = BigInt.asUintN(128, value);
  for (let i = sumBytes - 1; i >= 0; i -= 1) {
    out[offset + i] = Number(v & 0xffn);
    v >>= 8n;
  }
}

function readSum(bytes: Uint8Array, offset: number): bigint {
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, sumBytes);
  return BigInt.asIntN(128, (view.getBigUint64(0) << 64n) | view.getBigUint64(8));
}

/** The node at `index` of a flat level. */
export function readNode(level: Uint8Array, index: number, dims: number): SumNode {
  const size = nodeBytes(dims);
  const at = index * size;
  const hash = level.slice(at, at + hashBytes);
  const sums: bigint[] = [];
  for (let d = 0; d < dims; d += 1) sums.push(readSum(level, at + hashBytes + d * sumBytes));
  return { hash, sums };
}

/** Writes `node` at `index` of a flat level. */
export function writeNode(level: Uint8Array, index: number, node: SumNode): void {
  const at = index * nodeBytes(node.sums.length);
  level.set(node.hash, at);
  node.sums.forEach((s, d) => writeSum(level, at + hashBytes + d * sumBytes, s));
}

/** A user's key in one scope (a snapshot, an epoch): hides the id unless one knows the salt. */
export function userKey(salt: Uint8Array, scope: string, userId: number): Uint8Array {
  const scopeBytes = new TextEncoder().encode(scope);
  const input = new Uint8Array(userTag.length + salt.length + scopeBytes.length + 8);
  input.set(userTag, 0);
  input.set(salt, userTag.length);
  input.set(scopeBytes, userTag.length + salt.length);
  new DataView(input.buffer).setBigUint64(input.length - 8, BigInt(userId));
  return sha256(input);
}

/** One leaf: part `part` of a user's amounts. */
export function leafNode(key: Uint8Array, part: number, sums: bigint[]): SumNode {
  const input = new Uint8Array(1 + hashBytes + 4 + sumBytes * sums.length);
  input[0] = leafTag;
  input.set(key, 1);
  new DataView(input.buffer).setUint32(1 + hashBytes, part);
  sums.forEach((s, d) => writeSum(input, 1 + hashBytes + 4 + d * sumBytes, s));
  return { hash: sha256(input), sums };
}

/** The parent of two nodes: its hash commits to both children's hashes and sums. */
export function parentNode(left: SumNode, right: SumNode): SumNode {
  const dims = left.sums.length;
  if (right.sums.length !== dims) throw new Error('children with different dimensions');
  const size = nodeBytes(dims);
  const input = new Uint8Array(1 + 2 * size);
  input[0] = nodeTag;
  writeNode(input.subarray(1), 0, left);
  writeNode(input.subarray(1), 1, right);
  return { hash: sha256(input), sums: left.sums.map((s, d) => s + right.sums[d]!) };
}

/** The parent of the flat nodes at i and i+1 of `level`, hashed straight from the bytes. */
function parentOfFlat(level: Uint8Array, i: number, dims: number, out: Uint8Array, outIndex: number): void {
  const size = nodeBytes(dims);
  const input = new Uint8Array(1 + 2 * size);
  input[0] = nodeTag;
  input.set(level.subarray(i * size, (i + 2) * size), 1);
  out.set(sha256(input), outIndex * size);
  for (let d = 0; d < dims; d += 1) {
    const off = hashBytes + d * sumBytes;
    writeSum(out, outIndex * size + off, readSum(level, i * size + off) + readSum(level, (i + 1) * size + off));
  }
}

/** The tree over a flat leaf level: every level, leaves first, the root's level (one node) last. */
export interface SumTree {
  dims: number;
  levels: Uint8Array[];
}

/** Node count of a level. */
export function levelSize(tree: SumTree, level: number): number {
  return tree.levels[level]!.length / nodeBytes(tree.dims);
}

/** The levels above `leaves`, built `slice` parents at a time; `between` runs between two slices. */
function* buildLevels(leaves: Uint8Array, dims: number, slice: number): Generator<void, SumTree> {
  const size = nodeBytes(dims);
  if (leaves.length === 0 || leaves.length % size !== 0) throw new Error('a tree needs at least one whole leaf');
  const levels = [leaves];
  let level = leaves;
  while (level.length > size) {
    const n = level.length / size;
    const next = new Uint8Array(Math.ceil(n / 2) * size);
    for (let i = 0; i + 1 < n; i += 2) {
      parentOfFlat(level, i, dims, next, i / 2);
      if ((i / 2 + 1) % slice === 0) yield;
    }
    if (n % 2 === 1) next.set(level.subarray((n - 1) * size), ((n - 1) / 2) * size);
    levels.push(next);
    level = next;
  }
  return { dims, levels };
}

/** Builds every level above a flat leaf level (n × nodeBytes(dims) bytes, n ≥ 1). */
export function buildTree(leaves: Uint8Array, dims: number): SumTree {
  const steps = buildLevels(leaves, dims, Number.MAX_SAFE_INTEGER);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The same tree, built `slice` parents at a time with `pause()` awaited between slices: a server
 * building a million-user tree keeps answering requests meanwhile.
 */
export async function buildTreeInSlices(leaves: Uint8Array, dims: number, slice: number, pause: () => Promise<unknown>): Promise<SumTree> {
  const steps = buildLevels(leaves, dims, slice);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await pause();
  }
}

export function treeRoot(tree: SumTree): SumNode {
  return readNode(tree.levels.at(-1)!, 0, tree.dims);
}

/** One step of a path: the sibling and on which side it sits. */
export interface PathStep {
  side: 'left' | 'right';
  node: SumNode;
}

/** The siblings from leaf `index` up to the root (a level where the node was carried up has none). */
export function pathOf(tree: SumTree, index: number): PathStep[] {
  const steps: PathStep[] = [];
  let i = index;
  for (let l = 0; l < tree.levels.length - 1; l += 1) {
    const n = levelSize(tree, l);
    const sibling = i % 2 === 0 ? i + 1 : i - 1;
    if (sibling < n) steps.push({ side: i % 2 === 0 ? 'right' : 'left', node: readNode(tree.levels[l]!, sibling, tree.dims) });
    i = Math.floor(i / 2);
  }
  return steps;
}

/** The root a leaf and its path lead to, with every node on the way (leaf first, root last). */
export function climb(leaf: SumNode, steps: PathStep[]): SumNode[] {
  const nodes = [leaf];
  let node = leaf;
  for (const step of steps) {
    node = step.side === 'left' ? parentNode(step.node, node) : parentNode(node, step.node);
    nodes.push(node);
  }
  return nodes;
}

/**
 * Splits amounts into `parts` random non-negative parts that add up to them exactly, so that one
 * user's total never appears in a single leaf. `random(bound)` answers a uniform bigint in [0, bound].
 */
export function splitAmounts(sums: bigint[], parts: number, random: (bound: bigint) => bigint): bigint[][] {
  if (parts < 1) throw new RangeError('at least one part');
  const out = Array.from({ length: parts }, () => sums.map(() => 0n));
  sums.forEach((total, d) => {
    if (total < 0n) throw new RangeError('a negative amount cannot be split');
    let left = total;
    for (let p = 0; p < parts - 1; p += 1) {
      const share = random(left);
      out[p]![d] = share;
      left -= share;
    }
    out[parts - 1]![d] = left;
  });
  return out;
}

export function toHex(bytes: Uint8Array): string {
  let s = '0x';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

export function fromHex(hex: string): Uint8Array {
  const clean = hex.startsWith('0x') ? hex.slice(2) : hex;
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(clean)) throw new Error('not a hex string');
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
