// `npm run verify:reserves -- --url <app> --rpc <chain> [--snapshot id] [--proof my-proof.json]`:
// the independent verifier of docs/transparency.md ("The verifier"). It trusts nothing the app says
// without checking it against the chain: it reads the app's PUBLIC API only (sealed when the app
// asks for the request envelope, as its web does), downloads the whole liabilities tree, rebuilds it
// with packages/proof, and holds the root, the totals and every reserve address's signature and
// balances against what the chain says at the snapshot's block. With --proof (a user's downloaded
// proof) it checks that user's inclusion too. It prints each check and a verdict; the exit code is 0
// only when every check passes (1: a check failed, 2: it could not run).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createPublicClient, getAddress, http, isAddress, maxUint256, verifyMessage, zeroHash, type Address, type Hex, type PublicClient } from 'viem';
import { z } from 'zod';
import type { AppConfig } from '@nadi/api/config';
import { liabilityDims, proofJson, treeDownloadPath, type SnapshotDetail, type TransparencySummary } from '@nadi/api/transparency';
import { nadiTokenAbi, paymentGatewayAbi, proofPublisherAbi } from '@nadi/chain/artifacts';
import { EnvelopeClient } from '@nadi/envelope/client';
import { parseAmount, toDecimalString } from '@nadi/money/money';
import { checkTree, verifyProof, type ProofJson, type VerifyFailure } from '@nadi/proof/proof';
import { messageNames, parseReserveMessage, platformOf } from '@nadi/proof/reserves';
import { equalBytes, fromHex, nodeBytes, readNode, toHex } from '@nadi/proof/tree';

export interface VerifyOptions {
  /** The app's public address, e.g. https://app.nadi.example. */
  url: string;
  /** A JSON-RPC endpoint of the chain the app publishes on (the verifier's own choice: not the app's). */
  rpc: string;
  /** The snapshot to check; default: the proof's, else the latest. */
  snapshotId?: number;
  /** A user's downloaded proof (the JSON of "Download my proof"). */
  proof?: unknown;
  /** What the user believes they are owed (whole tokens, in liabilityDims order); default: the proof file's `expected`. */
  expected?: string[];
  /** The platform the reserve messages must name; default: the host of `url`. */
  platform?: string;
  /** The ProofPublisher to read; default: the one the app names. */
  contract?: Address;
}

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export interface Verdict {
  ok: boolean;
  checks: Check[];
  snapshotId: number | null;
}

/** The verification could not run (the app or the chain unreachable, a malformed answer). */
export class VerifyError extends Error {
  override name = 'VerifyError';
}

type Fetch = typeof fetch;

interface Api {
  config: AppConfig;
  get<T>(pathAndQuery: string): Promise<T>;
  bytes(pathOrUrl: string): Promise<Uint8Array>;
}

/** The app's public API: the config plain, every other JSON route sealed when the app asks for it. */
async function connect(url: string, fetchImpl: Fetch, now?: () => number): Promise<Api> {
  const base = url.replace(/\/+$/, '');
  const answer = async (res: Response, what: string) => {
    const body = (await res.json().catch(() => null)) as { code?: number; msg?: string; data?: unknown } | null;
    if (res.status !== 200 || body?.code !== 200) throw new VerifyError(`${what}: HTTP ${res.status} ${body?.msg ?? ''}`.trim());
    return body.data;
  };
  const config = (await answer(
    await fetchImpl(`${base}/api/v1/common/config`).catch((error: unknown) => {
      throw new VerifyError(`the app at ${base} does not answer: ${(error as Error).message}`);
    }),
    'GET /api/v1/common/config',
  )) as AppConfig;
  const envelope = new EnvelopeClient({ loadConfig: async () => config.encryption, ...(now ? { now } : {}) });
  return {
    config,
    async get<T>(pathAndQuery: string): Promise<T> {
      const res = await envelope.request({ method: 'GET', pathAndQuery, headers: { lang: 'EN' } }, (path, init) => fetchImpl(`${base}${path}`, init));
      const body = res.body as { code?: number; msg?: string; data?: unknown } | null;
      if (res.status !== 200 || body?.code !== 200) throw new VerifyError(`GET ${pathAndQuery}: HTTP ${res.status} ${body?.msg ?? ''}`.trim());
      return body.data as T;
    },
    async bytes(pathOrUrl: string): Promise<Uint8Array> {
      const res = await fetchImpl(/^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${base}${pathOrUrl}`);
      if (res.status !== 200) throw new VerifyError(`GET ${pathOrUrl}: HTTP ${res.status}`);
      return new Uint8Array(await res.arrayBuffer());
    },
  };
}

interface TreeAnswer {
  scope: string;
  dims: string[];
  leaf_count: number;
  root: { hash: string; sums: string[] };
  download: string;
}

/** A downloaded and rebuilt tree. */
interface RebuiltTree {
  info: TreeAnswer;
  leaves: Uint8Array;
  root: { hash: string; sums: bigint[] };
}

const units = (text: string): bigint | null => {
  const parsed = parseAmount(text, 18, true);
  return parsed.ok ? parsed.units : null;
};
const tokens = (value: bigint) => toDecimalString(value);
const same = (a: string | null | undefined, b: string | null | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase();

const failureWords: Record<VerifyFailure, string> = {
  not_included: 'the proof has no leaf of this user',
  negative: 'a leaf or a node on the path is negative',
  root_mismatch: 'the path does not lead to the root',
  amounts_differ: 'the parts do not add up to what the user is owed',
  not_published: 'the root is not published on chain',
  published_mismatch: 'the root differs from the one published on chain',
};

/** Runs every check; never throws for a failed check (only VerifyError when it cannot run at all). */
export async function verifyReserves(
  options: VerifyOptions,
  deps: { fetch?: Fetch; client?: PublicClient; /** The clock sealed requests carry (tests: the server's test clock). */ now?: () => number } = {},
): Promise<Verdict> {
  const checks: Check[] = [];
  const check = (name: string, ok: boolean, detail: string) => {
    checks.push({ name, ok, detail });
    return ok;
  };
  const api = await connect(options.url, deps.fetch ?? fetch, deps.now);
  const client = deps.client ?? createPublicClient({ transport: http(options.rpc, { timeout: 20_000, retryCount: 1 }) });
  const platform = options.platform ?? platformOf(options.url);

  // The chain: the verifier's own RPC must serve the app's chain.
  const chainId = await client.getChainId().catch((error: unknown) => {
    throw new VerifyError(`the RPC ${options.rpc} does not answer: ${(error as Error).message.split('\n')[0]}`);
  });
  check('chain', chainId === api.config.chain.id, `the RPC serves chain ${chainId}; the app says it uses chain ${api.config.chain.id}`);

  // The proof, read first: it may name the snapshot.
  let proof: ProofJson | null = null;
  let expected: bigint[] | null = null;
  if (options.proof !== undefined) {
    const read = readProofFile(options.proof);
    proof = read.proof;
    expected = options.expected ? options.expected.map((t) => units(t) ?? -1n) : read.expected;
  }
  const summary = await api.get<TransparencySummary>('/api/v1/transparency/summary');
  const proofSnapshot = proof ? /^snapshot:([0-9]+)$/.exec(proof.scope)?.[1] : undefined;
  const snapshotId = options.snapshotId ?? (proofSnapshot ? Number(proofSnapshot) : (summary.latest?.id ?? null));
  if (snapshotId === null) {
    check('snapshot', false, 'the app has no snapshot to verify');
    return { ok: false, checks, snapshotId };
  }
  const detail = await api.get<SnapshotDetail>(`/api/v1/transparency/snapshot?id=${snapshotId}`);
  check('snapshot', detail.id === snapshotId, `snapshot ${detail.id}, taken ${detail.taken_at}, reserves read at block ${detail.block_number}`);

  // The publication on chain.
  const contractText = options.contract ?? summary.contract?.address ?? api.config.chain.proof_publisher_address ?? detail.publication.contract;
  if (!contractText || !isAddress(contractText)) {
    check('published on chain', false, 'the app names no ProofPublisher contract (use --contract)');
    return { ok: false, checks, snapshotId };
  }
  const contract = getAddress(contractText);
  const published = await client.readContract({ address: contract, abi: proofPublisherAbi, functionName: 'publication', args: [BigInt(snapshotId)] });
  const isPublished = published.publishedBlock !== 0n;
  check(
    'published on chain',
    isPublished,
    isPublished
      ? `ProofPublisher ${contract} holds snapshot ${snapshotId} since block ${published.publishedBlock}`
      : `ProofPublisher ${contract} holds no snapshot ${snapshotId}`,
  );
  if (isPublished) {
    const epochOk = detail.epoch === null ? published.epoch === maxUint256 : published.epoch === BigInt(detail.epoch);
    check(
      'snapshot block and epoch',
      epochOk && published.blockNumber.toString() === detail.block_number,
      `on chain: block ${published.blockNumber}, epoch ${published.epoch === maxUint256 ? 'none' : published.epoch}; the app: block ${detail.block_number}, epoch ${detail.epoch ?? 'none'}`,
    );
  }

  // The liabilities tree, rebuilt from every leaf.
  const tree = await rebuild(api, `snapshot:${snapshotId}`, check);
  const liabilityIndex = (asset: string) => tree?.info.dims.indexOf(asset) ?? -1;
  const liabilities = liabilityDims.map((asset) => (tree && liabilityIndex(asset) >= 0 ? tree.root.sums[liabilityIndex(asset)]! : null));
  if (tree) {
    check(
      'tree dimensions',
      liabilityDims.every((asset) => liabilityIndex(asset) >= 0),
      `the tree sums ${tree.info.dims.join(', ')}`,
    );
    check(
      'the app’s root',
      same(tree.root.hash, tree.info.root.hash) && same(tree.root.hash, detail.liabilities_root) && sumsEqual(tree.root.sums, detail.liabilities_sums),
      `rebuilt ${tree.root.hash}; the app states ${detail.liabilities_root}`,
    );
    check(
      'root on chain',
      isPublished && same(tree.root.hash, published.liabilitiesRoot),
      `rebuilt ${tree.root.hash}; on chain ${isPublished ? published.liabilitiesRoot : '(nothing)'}`,
    );
    const [nadi = null, usdt = null] = liabilities;
    check(
      'totals on chain',
      isPublished && nadi === published.liabilitiesNadi && usdt === published.liabilitiesUsdt,
      `the tree owes ${nadi === null ? '?' : tokens(nadi)} NADI and ${usdt === null ? '?' : tokens(usdt)} USDT; on chain ${tokens(published.liabilitiesNadi)} NADI and ${tokens(published.liabilitiesUsdt)} USDT`,
    );
  }

  // The rewards root published with it.
  const rewardsOnChain = isPublished && published.rewardsRoot !== zeroHash;
  if (rewardsOnChain || detail.rewards_root) {
    const epoch = detail.epoch;
    const rewards = epoch === null ? null : await rebuild(api, `rewards:${epoch}`, check, 'rewards tree');
    if (rewards) {
      check(
        'rewards root on chain',
        rewardsOnChain && same(rewards.root.hash, published.rewardsRoot) && same(rewards.root.hash, detail.rewards_root),
        `rebuilt ${rewards.root.hash}; on chain ${rewardsOnChain ? published.rewardsRoot : '(nothing)'}; the app states ${detail.rewards_root ?? '(nothing)'}`,
      );
      const total = rewards.root.sums.reduce((a, b) => a + b, 0n);
      check(
        'rewards total on chain',
        isPublished && total === published.rewardsTotal,
        `the tree pays ${tokens(total)} NADI; on chain ${tokens(published.rewardsTotal)} NADI`,
      );
    } else check('rewards tree', false, 'a rewards root is published but the snapshot names no epoch');
  }

  // Reserves: each address's signature, and its balances at the snapshot's block.
  const blockNumber = BigInt(detail.block_number);
  const reserveTotals = { NADI: 0n, USDT: 0n };
  const seen = new Set<string>();
  for (const reserve of detail.reserves) {
    const label = `reserve ${reserve.address} (${reserve.role}${reserve.label ? `, ${reserve.label}` : ''})`;
    if (seen.has(reserve.address.toLowerCase())) {
      check(label, false, 'listed twice: its balances would count twice');
      continue;
    }
    seen.add(reserve.address.toLowerCase());
    const named = parseReserveMessage(reserve.message);
    const namesIt = messageNames(reserve.message, { platform, address: reserve.address });
    check(
      `${label}: message`,
      namesIt,
      namesIt
        ? `names ${reserve.address} and ${platform}`
        : `names ${named ? `${named.address} and ${named.platform}` : 'no address and platform'}; expected ${reserve.address} and ${platform}`,
    );
    const signer = await expectedSigner(client, reserve.role, reserve.address as Address, blockNumber);
    const signedOk = same(reserve.signer, signer) && (await isSignedBy(client, getAddress(reserve.signer), reserve.message, reserve.signature as Hex));
    check(
      `${label}: signature`,
      signedOk,
      signedOk
        ? `signed by ${reserve.signer}${reserve.role === 'payment_gateway' ? ', the contract’s owner at that block' : ''}`
        : `does not verify as ${signer ?? reserve.signer}'s${signer && !same(signer, reserve.signer) ? ` (the app says ${reserve.signer})` : ''}`,
    );
    for (const [asset, token] of [
      ['NADI', api.config.chain.nadi_address],
      ['USDT', api.config.chain.usdt_address],
    ] as const) {
      const claimed = units(reserve.balances[asset]);
      const actual = token
        ? await client.readContract({
            address: getAddress(token),
            abi: nadiTokenAbi,
            functionName: 'balanceOf',
            args: [getAddress(reserve.address)],
            blockNumber,
          })
        : 0n;
      reserveTotals[asset] += actual;
      check(`${label}: ${asset}`, claimed === actual, `the app says ${reserve.balances[asset]}, the chain ${tokens(actual)} at block ${blockNumber}`);
    }
  }
  liabilityDims.forEach((asset, d) => {
    const cover = detail.cover.find((c) => c.asset === asset);
    const owed = liabilities[d] ?? null;
    const reserves = reserveTotals[asset];
    check(
      `cover ${asset}`,
      cover !== undefined && units(cover.reserves) === reserves && owed !== null && units(cover.liabilities) === owed && reserves >= owed,
      `reserves ${tokens(reserves)} (the app says ${cover?.reserves ?? '?'}) against liabilities ${owed === null ? '?' : tokens(owed)} (the app says ${cover?.liabilities ?? '?'})`,
    );
  });

  // One user's inclusion.
  if (proof) checkProof(proof, expected, tree, isPublished ? published.liabilitiesRoot : null, snapshotId, check);
  return { ok: checks.every((c) => c.ok), checks, snapshotId };
}

function sumsEqual(a: bigint[], b: string[]): boolean {
  return a.length === b.length && a.every((s, d) => s.toString() === b[d]);
}

/** Downloads a tree's leaves and rebuilds it; null (with a failed check) when it cannot be. */
async function rebuild(api: Api, scope: string, check: (name: string, ok: boolean, detail: string) => boolean, name = 'tree'): Promise<RebuiltTree | null> {
  let info: TreeAnswer;
  let leaves: Uint8Array;
  try {
    info = await api.get<TreeAnswer>(`/api/v1/transparency/tree?scope=${encodeURIComponent(scope)}`);
    leaves = await api.bytes(info.download || `${treeDownloadPath}?scope=${encodeURIComponent(scope)}`);
  } catch (error) {
    if (!(error instanceof VerifyError)) throw error;
    check(name, false, `${scope}: the app does not serve it (${error.message})`);
    return null;
  }
  const size = nodeBytes(info.dims.length);
  const count = leaves.length / size;
  if (leaves.length === 0 || leaves.length % size !== 0 || count !== info.leaf_count) {
    check(name, false, `${scope}: ${leaves.length} bytes are not ${info.leaf_count} leaves of ${size} bytes`);
    return null;
  }
  const rebuilt = checkTree(leaves, info.dims.length);
  check(name, true, `${scope}: ${count} leaves downloaded and rebuilt`);
  check(
    `${name}: no negative amount`,
    rebuilt.negative === null,
    rebuilt.negative === null
      ? 'no leaf and no node sums below zero'
      : `${rebuilt.negative.level === 0 ? 'leaf' : `node at level ${rebuilt.negative.level}`} ${rebuilt.negative.index} is negative`,
  );
  return { info, leaves, root: { hash: toHex(rebuilt.root.hash), sums: rebuilt.root.sums } };
}

/** Who must have signed: the address itself, or for the payment gateway (a contract) its owner at the block. */
async function expectedSigner(client: PublicClient, role: string, address: Address, blockNumber: bigint): Promise<Address | null> {
  if (role !== 'payment_gateway') return getAddress(address);
  try {
    return await client.readContract({ address, abi: paymentGatewayAbi, functionName: 'owner', blockNumber });
  } catch {
    return null;
  }
}

async function isSignedBy(client: PublicClient, signer: Address, message: string, signature: Hex): Promise<boolean> {
  try {
    if (await verifyMessage({ address: signer, message, signature })) return true;
  } catch {
    // Not a plain ECDSA signature: a contract wallet's, maybe.
  }
  try {
    return await client.verifyMessage({ address: signer, message, signature });
  } catch {
    return false;
  }
}

/** A downloaded proof file: the balance proof answer ({snapshot, proof, expected}), its envelope, or the bare proof. */
export function readProofFile(json: unknown): { proof: ProofJson; expected: bigint[] | null } {
  const envelope = z.object({ data: z.unknown() }).safeParse(json);
  const inner = envelope.success && typeof envelope.data.data === 'object' && envelope.data.data !== null ? envelope.data.data : json;
  const wrapped = z.object({ proof: proofJson, expected: z.array(z.string()).optional() }).safeParse(inner);
  if (wrapped.success) return { proof: wrapped.data.proof, expected: wrapped.data.expected?.map((s) => BigInt(s)) ?? null };
  const bare = proofJson.safeParse(inner);
  if (bare.success) return { proof: bare.data, expected: null };
  throw new VerifyError('the proof file is not a proof (the JSON of "Download my proof")');
}

function checkProof(
  proof: ProofJson,
  expected: bigint[] | null,
  tree: RebuiltTree | null,
  publishedRoot: string | null,
  snapshotId: number,
  check: (name: string, ok: boolean, detail: string) => boolean,
): void {
  check('your proof: snapshot', proof.scope === `snapshot:${snapshotId}`, `the proof is of ${proof.scope}; verifying snapshot:${snapshotId}`);
  const result = verifyProof(proof, { userId: proof.user_id, expectedSums: expected, publishedRoot });
  const total = result.steps.find((s) => s.kind === 'total');
  const amounts = (sums: readonly string[] | null | undefined) =>
    sums ? proof.dims.map((dim, d) => `${toDecimalString(BigInt(sums[d] ?? '0'))} ${dim}`).join(', ') : 'not given';
  check(
    'your proof: path to the published root',
    result.ok,
    result.ok
      ? `${proof.parts.length} part(s) lead to the published root; they add up to ${amounts(total?.kind === 'total' ? total.sums : null)}${expected ? ', what you are owed' : ''}`
      : `${failureWords[result.failure!]}${total?.kind === 'total' ? ` (your parts: ${amounts(total.sums)}; you are owed: ${amounts(total.expected)})` : ''}`,
  );
  if (!tree) return;
  const dims = tree.info.dims.length;
  const inTree =
    proof.parts.length > 0 &&
    proof.parts.every((part) => {
      if (part.index < 0 || part.index >= tree.info.leaf_count) return false;
      const leaf = readNode(tree.leaves, part.index, dims);
      const climbed = result.steps.find((s) => s.kind === 'leaf' && s.part === part.part);
      return climbed?.kind === 'leaf' && equalBytes(leaf.hash, fromHex(climbed.hash)) && leaf.sums.every((s, d) => s.toString() === part.sums[d]);
    });
  check(
    'your proof: leaves in the downloaded tree',
    inTree,
    inTree
      ? `each of your leaves is at its place among the ${tree.info.leaf_count}`
      : 'your leaves are not in the tree the app publishes: you are left out of it',
  );
}

const usage = `Usage: npm run verify:reserves -- --url <app> --rpc <chain> [--snapshot <id>] [--proof <file.json>]
                                   [--expect <NADI>,<USDT>] [--platform <host>] [--contract <0x…>]

Checks a NADI proof of reserves with the app's public API and a chain RPC of your choice
(docs/transparency.md, "The verifier"): rebuilds the liabilities tree from every leaf, holds its
root and totals against the ProofPublisher contract, checks each reserve address's signature and
its balances at the snapshot's block, and with --proof your own inclusion.

  --url        the app, e.g. https://app.nadi.example
  --rpc        a JSON-RPC endpoint of the chain, e.g. https://bsc-dataseed.bnbchain.org
  --snapshot   the snapshot id (default: your proof's, else the latest)
  --proof      your downloaded proof (JSON)
  --expect     what you are owed, whole tokens, NADI then USDT (default: the proof file's figure)
  --platform   the platform the reserve messages must name (default: the host of --url)
  --contract   the ProofPublisher address (default: the one the app names)

Exit code: 0 when every check passes, 1 when one fails, 2 when the verification cannot run.
`;

/** Prints each check and the verdict; answers the exit code. */
export async function main(argv: string[], print: (line: string) => void = console.info, deps: { fetch?: Fetch } = {}): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        url: { type: 'string' },
        rpc: { type: 'string' },
        snapshot: { type: 'string' },
        proof: { type: 'string' },
        expect: { type: 'string' },
        platform: { type: 'string' },
        contract: { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (error) {
    print(`verify-reserves: ${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if (values.help) {
    print(usage);
    return 0;
  }
  const problems: string[] = [];
  const url = String(values.url ?? '');
  const rpc = String(values.rpc ?? '');
  if (!/^https?:\/\/\S+$/.test(url)) problems.push('--url must be the app’s http(s) address');
  if (!/^https?:\/\/\S+$/.test(rpc)) problems.push('--rpc must be an http(s) JSON-RPC endpoint');
  const snapshotText = values.snapshot as string | undefined;
  if (snapshotText !== undefined && !/^[1-9][0-9]{0,9}$/.test(snapshotText)) problems.push('--snapshot must be a snapshot id (a positive whole number)');
  const expectText = values.expect as string | undefined;
  const expected = expectText?.split(',').map((t) => t.trim());
  if (expected && (expected.length !== liabilityDims.length || expected.some((t) => units(t) === null))) {
    problems.push(`--expect must be ${liabilityDims.length} amounts in whole tokens, ${liabilityDims.join(' then ')}, e.g. 1250.5,30`);
  }
  const contract = values.contract as string | undefined;
  if (contract !== undefined && !isAddress(contract)) problems.push('--contract must be a 0x address');
  let proof: unknown;
  if (typeof values.proof === 'string') {
    try {
      proof = JSON.parse(readFileSync(values.proof, 'utf8')) as unknown;
    } catch (error) {
      problems.push(`--proof ${values.proof}: ${(error as Error).message}`);
    }
  } else if (expected) problems.push('--expect goes with --proof');
  if (problems.length > 0) {
    print(`verify-reserves: ${problems.join('\n  ')}\n\n${usage}`);
    return 2;
  }
  try {
    const verdict = await verifyReserves(
      {
        url,
        rpc,
        ...(snapshotText ? { snapshotId: Number(snapshotText) } : {}),
        ...(proof === undefined ? {} : { proof }),
        ...(expected ? { expected } : {}),
        ...(typeof values.platform === 'string' ? { platform: values.platform } : {}),
        ...(contract ? { contract: getAddress(contract) } : {}),
      },
      deps,
    );
    print(`Verifying ${url}${verdict.snapshotId === null ? '' : `, snapshot ${verdict.snapshotId}`}, against ${rpc}`);
    for (const c of verdict.checks) print(`${c.ok ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}`);
    const failed = verdict.checks.filter((c) => !c.ok).length;
    print(verdict.ok ? `VERDICT: PASS, all ${verdict.checks.length} checks passed` : `VERDICT: FAIL, ${failed} of ${verdict.checks.length} checks failed`);
    return verdict.ok ? 0 : 1;
  } catch (error) {
    print(`verify-reserves: could not verify: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = await main(process.argv.slice(2));
