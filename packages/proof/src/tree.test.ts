import { describe, expect, it } from 'vitest';
import { checkTree, proofOf, verifyProof } from './proof.ts';
import {
  buildTree,
  buildTreeInSlices,
  climb,
  leafNode,
  nodeBytes,
  parentNode,
  pathOf,
  readNode,
  splitAmounts,
  toHex,
  treeRoot,
  userKey,
  writeNode,
  type SumNode,
} from './tree.ts';

const salt = (n: number) => new Uint8Array(32).fill(n);
const dims = 2;

/** A tree over users 1..n, each with (i, 2i) split into two parts; answers the tree and each user's leaf indexes. */
function sample(n: number) {
  const nodes: SumNode[] = [];
  const indexes = new Map<number, number[]>();
  for (let u = 1; u <= n; u += 1) {
    const key = userKey(salt(u), 'snapshot:1', u);
    const parts = splitAmounts([BigInt(u), BigInt(2 * u)], 2, (bound) => bound / 3n);
    indexes.set(
      u,
      parts.map((sums, p) => {
        nodes.push(leafNode(key, p, sums));
        return nodes.length - 1;
      }),
    );
  }
  const leaves = new Uint8Array(nodes.length * nodeBytes(dims));
  nodes.forEach((node, i) => writeNode(leaves, i, node));
  return { tree: buildTree(leaves, dims), leaves, indexes };
}

describe('the sum tree', () => {
  it('sums run up to the root, and an odd node is carried up, not doubled', () => {
    for (const n of [1, 2, 3, 5, 17]) {
      const { tree } = sample(n);
      const total = (n * (n + 1)) / 2;
      expect(treeRoot(tree).sums).toEqual([BigInt(total), BigInt(2 * total)]);
    }
  });

  it('a parent hash commits to the children’s sums: moving value between siblings changes it', () => {
    const a = leafNode(salt(1), 0, [5n, 0n]);
    const b = leafNode(salt(2), 0, [5n, 0n]);
    const moved = { hash: a.hash, sums: [6n, 0n] };
    const less = { hash: b.hash, sums: [4n, 0n] };
    expect(toHex(parentNode(a, b).hash)).not.toBe(toHex(parentNode(moved, less).hash));
  });

  it('built in slices, with pauses between them, the tree is the same', async () => {
    const { tree, leaves } = sample(13);
    let pauses = 0;
    const sliced = await buildTreeInSlices(leaves, dims, 4, async () => (pauses += 1));
    expect(sliced.levels.map(toHex)).toEqual(tree.levels.map(toHex));
    expect(pauses).toBeGreaterThan(3);
  });

  it('every path climbs to the root', () => {
    const { tree } = sample(11);
    const root = treeRoot(tree);
    for (let i = 0; i < 22; i += 1) {
      const top = climb(readNode(tree.levels[0]!, i, dims), pathOf(tree, i)).at(-1)!;
      expect(toHex(top.hash)).toBe(toHex(root.hash));
    }
  });

  it('splits keep the total exactly and no part is negative', () => {
    let seed = 7n;
    const random = (bound: bigint) => {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) % (1n << 64n);
      return bound === 0n ? 0n : seed % (bound + 1n);
    };
    for (const total of [0n, 1n, 10n ** 18n + 3n]) {
      const parts = splitAmounts([total, total * 2n], 3, random);
      expect(parts.reduce((s, p) => s + p[0]!, 0n)).toBe(total);
      expect(parts.reduce((s, p) => s + p[1]!, 0n)).toBe(total * 2n);
      expect(parts.flat().every((x) => x >= 0n)).toBe(true);
    }
  });

  it('refuses sums beyond 128 bits rather than wrapping them', () => {
    expect(() => leafNode(salt(1), 0, [1n << 127n, 0n])).toThrow(RangeError);
  });
});

describe('a user’s proof', () => {
  const { tree, leaves, indexes } = sample(9);
  const proof = (u: number) => proofOf(tree, { scope: 'snapshot:1', dims: ['NADI', 'USDT'], userId: u, salt: salt(u), indexes: indexes.get(u)! });
  const root = toHex(treeRoot(tree).hash);

  it('verifies for every user, against their amounts and the published root', () => {
    for (let u = 1; u <= 9; u += 1) {
      const result = verifyProof(proof(u), { userId: u, expectedSums: [BigInt(u), BigInt(2 * u)], publishedRoot: root });
      expect(result.failure).toBeNull();
      expect(result.ok).toBe(true);
      expect(result.steps.map((s) => s.kind)).toContain('published');
    }
  });

  it('a lowered balance, a wrong salt, another user’s id, a wrong published root and no root are each caught', () => {
    expect(verifyProof(proof(3), { userId: 3, expectedSums: [4n, 6n], publishedRoot: root }).failure).toBe('amounts_differ');
    expect(verifyProof({ ...proof(3), salt: toHex(salt(4)) }, { userId: 3, expectedSums: null, publishedRoot: root }).failure).toBe('root_mismatch');
    expect(verifyProof(proof(3), { userId: 4, expectedSums: null, publishedRoot: root }).failure).toBe('not_included');
    expect(verifyProof({ ...proof(3), parts: [] }, { userId: 3, expectedSums: null, publishedRoot: root }).failure).toBe('not_included');
    expect(verifyProof(proof(3), { userId: 3, expectedSums: null, publishedRoot: '0x' + '11'.repeat(32) }).failure).toBe('published_mismatch');
    expect(verifyProof(proof(3), { userId: 3, expectedSums: null, publishedRoot: null }).failure).toBe('not_published');
  });

  it('a tampered leaf, whose path is recomputed to a new root, no longer matches the published root', () => {
    const tampered = new Uint8Array(leaves);
    const [index] = indexes.get(5)!;
    const leaf = readNode(tampered, index!, dims);
    writeNode(tampered, index!, leafNode(userKey(salt(5), 'snapshot:1', 5), 0, [leaf.sums[0]! - 1n, leaf.sums[1]!]));
    const other = buildTree(tampered, dims);
    const p = proofOf(other, { scope: 'snapshot:1', dims: ['NADI', 'USDT'], userId: 5, salt: salt(5), indexes: indexes.get(5)! });
    expect(verifyProof(p, { userId: 5, expectedSums: [5n, 10n], publishedRoot: root }).failure).toBe('amounts_differ');
    expect(verifyProof(p, { userId: 5, expectedSums: null, publishedRoot: root }).failure).toBe('published_mismatch');
  });

  it('a negative leaf is caught by the user’s check and by the whole-tree check', () => {
    const tampered = new Uint8Array(leaves);
    const [a, b] = indexes.get(2)!;
    const key = userKey(salt(2), 'snapshot:1', 2);
    const first = readNode(tampered, a!, dims);
    const second = readNode(tampered, b!, dims);
    // Same total, but one part negative: only the sign check can tell.
    writeNode(tampered, a!, leafNode(key, 0, [first.sums[0]! + 10n, first.sums[1]!]));
    writeNode(tampered, b!, leafNode(key, 1, [second.sums[0]! - 10n, second.sums[1]!]));
    const other = buildTree(tampered, dims);
    const p = proofOf(other, { scope: 'snapshot:1', dims: ['NADI', 'USDT'], userId: 2, salt: salt(2), indexes: [a!, b!] });
    expect(verifyProof(p, { userId: 2, expectedSums: [2n, 4n], publishedRoot: toHex(treeRoot(other).hash) }).failure).toBe('negative');
    expect(checkTree(tampered, dims).negative).toEqual({ level: 0, index: b });
    expect(checkTree(leaves, dims).negative).toBeNull();
    expect(toHex(checkTree(leaves, dims).root.hash)).toBe(root);
  });
});
