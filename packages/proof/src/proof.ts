// A user's proof (their leaves and the paths from them to the root) as the API serves it and the
// browser and the verifier check it, step by step (docs/transparency.md).
import { buildTree, climb, equalBytes, fromHex, leafNode, nodeBytes, pathOf, readNode, toHex, treeRoot, userKey, type SumNode, type SumTree } from './tree.ts';

/** A node as JSON: hex hash, decimal base-unit sums. */
export interface NodeJson {
  hash: string;
  sums: string[];
}

export interface ProofPartJson {
  /** The leaf's position in the leaf level. */
  index: number;
  /** The part number hashed into the leaf (0, 1, …). */
  part: number;
  sums: string[];
  /** Siblings from the leaf up: `left` means the sibling is the left child. */
  path: { side: 'left' | 'right'; hash: string; sums: string[] }[];
}

export interface ProofJson {
  /** What the tree is of: `snapshot:<id>` (liabilities) or `rewards:<epoch>`. */
  scope: string;
  /** What each sum is: assets (liabilities) or income kinds (rewards). */
  dims: string[];
  user_id: number;
  /** The user's secret salt (hex): only the user is given it. */
  salt: string;
  parts: ProofPartJson[];
  root: NodeJson;
  leaf_count: number;
}

export function nodeJson(node: SumNode): NodeJson {
  return { hash: toHex(node.hash), sums: node.sums.map(String) };
}

function nodeOf(json: NodeJson): SumNode {
  return { hash: fromHex(json.hash), sums: json.sums.map((s) => BigInt(s)) };
}

/** The proof for a user whose leaves sit at `indexes` (part i at indexes[i]) of a built tree. */
export function proofOf(tree: SumTree, input: { scope: string; dims: string[]; userId: number; salt: Uint8Array; indexes: number[] }): ProofJson {
  return {
    scope: input.scope,
    dims: input.dims,
    user_id: input.userId,
    salt: toHex(input.salt),
    parts: input.indexes.map((index, part) => {
      const leaf = readNode(tree.levels[0]!, index, tree.dims);
      return {
        index,
        part,
        sums: leaf.sums.map(String),
        path: pathOf(tree, index).map((s) => ({ side: s.side, hash: toHex(s.node.hash), sums: s.node.sums.map(String) })),
      };
    }),
    root: nodeJson(treeRoot(tree)),
    leaf_count: tree.levels[0]!.length / nodeBytes(tree.dims),
  };
}

/** One step of a check, for the screen to say in words (the kinds are translated there). */
export type VerifyStep =
  | { kind: 'user_key'; ok: true; key: string }
  | { kind: 'leaf'; ok: boolean; part: number; hash: string; sums: string[] }
  | { kind: 'climb'; ok: boolean; part: number; level: number; side: 'left' | 'right'; hash: string; sums: string[] }
  | { kind: 'root'; ok: boolean; part: number; hash: string; expected: string }
  | { kind: 'total'; ok: boolean; sums: string[]; expected: string[] | null }
  | { kind: 'published'; ok: boolean; root: string; published: string | null };

export type VerifyFailure = 'not_included' | 'negative' | 'root_mismatch' | 'amounts_differ' | 'not_published' | 'published_mismatch';

export interface VerifyResult {
  ok: boolean;
  failure: VerifyFailure | null;
  steps: VerifyStep[];
}

/**
 * Checks a proof: the user's key from their salt and id, each part's leaf, the climb to the root
 * (no sum on the way may be negative), the root the proof names, the parts' total against what the
 * user expects to be owed (`expectedSums`, null to skip), and that root against the one published
 * on chain (`publishedRoot`, null when nothing is published: a failure).
 */
export function verifyProof(proof: ProofJson, expect: { userId: number; expectedSums: bigint[] | null; publishedRoot: string | null }): VerifyResult {
  const steps: VerifyStep[] = [];
  let failure: VerifyFailure | null = null;
  const fail = (f: VerifyFailure) => {
    failure ??= f;
  };
  if (proof.parts.length === 0 || proof.user_id !== expect.userId) {
    return { ok: false, failure: 'not_included', steps };
  }
  const key = userKey(fromHex(proof.salt), proof.scope, expect.userId);
  steps.push({ kind: 'user_key', ok: true, key: toHex(key) });
  const root = nodeOf(proof.root);
  const total = proof.dims.map(() => 0n);
  for (const part of proof.parts) {
    const sums = part.sums.map((s) => BigInt(s));
    const leaf = leafNode(key, part.part, sums);
    const leafOk = sums.every((s) => s >= 0n);
    if (!leafOk) fail('negative');
    steps.push({ kind: 'leaf', ok: leafOk, part: part.part, hash: toHex(leaf.hash), sums: part.sums });
    sums.forEach((s, d) => (total[d] = total[d]! + s));
    const nodes = climb(
      leaf,
      part.path.map((p) => ({ side: p.side, node: nodeOf(p) })),
    );
    nodes.slice(1).forEach((node, i) => {
      const sibling = part.path[i]!;
      const ok = node.sums.every((s) => s >= 0n) && sibling.sums.every((s) => BigInt(s) >= 0n);
      if (!ok) fail('negative');
      steps.push({ kind: 'climb', ok, part: part.part, level: i + 1, side: sibling.side, hash: toHex(node.hash), sums: node.sums.map(String) });
    });
    const top = nodes.at(-1)!;
    const rootOk = equalBytes(top.hash, root.hash) && top.sums.every((s, d) => s === root.sums[d]);
    if (!rootOk) fail('root_mismatch');
    steps.push({ kind: 'root', ok: rootOk, part: part.part, hash: toHex(top.hash), expected: proof.root.hash });
  }
  const totalOk = expect.expectedSums === null || total.every((s, d) => s === expect.expectedSums![d]);
  if (!totalOk) fail('amounts_differ');
  steps.push({ kind: 'total', ok: totalOk, sums: total.map(String), expected: expect.expectedSums?.map(String) ?? null });
  const publishedOk = expect.publishedRoot !== null && expect.publishedRoot.toLowerCase() === proof.root.hash.toLowerCase();
  if (!publishedOk) fail(expect.publishedRoot === null ? 'not_published' : 'published_mismatch');
  steps.push({ kind: 'published', ok: publishedOk, root: proof.root.hash, published: expect.publishedRoot });
  return { ok: failure === null, failure, steps };
}

/** What a whole-tree check finds: the recomputed root, and the first negative node if any. */
export interface TreeCheck {
  root: SumNode;
  leafCount: number;
  /** The first node (level, index) with a negative sum, leaves included; null when none. */
  negative: { level: number; index: number } | null;
}

/** Rebuilds the tree from its published leaves and looks at every node's sums. */
export function checkTree(leaves: Uint8Array, dims: number): TreeCheck {
  const tree = buildTree(leaves, dims);
  let negative: TreeCheck['negative'] = null;
  for (let level = 0; level < tree.levels.length && !negative; level += 1) {
    const n = tree.levels[level]!.length / nodeBytes(dims);
    for (let i = 0; i < n; i += 1) {
      if (readNode(tree.levels[level]!, i, dims).sums.some((s) => s < 0n)) {
        negative = { level, index: i };
        break;
      }
    }
  }
  return { root: treeRoot(tree), leafCount: leaves.length / nodeBytes(dims), negative };
}
