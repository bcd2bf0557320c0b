import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress, parseEther, type Address, type Hex } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { liabilityDims, rewardKinds, treeDownloadPath, type ReserveAddress, type SnapshotDetail } from '@nadi/api/transparency';
import { nadiTokenAbi, proofPublisherAbi } from '@nadi/chain/artifacts';
import { localWalletClient, publicClientFor } from '@nadi/chain/clients';
import { deployerAddress, hardhatDevPrivateKeys } from '@nadi/chain/demo-accounts';
import { deployLocalContracts, type LocalContracts } from '@nadi/chain/deploy';
import { mineBlocks, startLocalChain, type LocalChain } from '@nadi/chain/local-chain';
import { envelopeKeyFromSeed, newEnvelopeSeed, openRequest, type EnvelopeKey } from '@nadi/envelope/envelope';
import { toDecimalString } from '@nadi/money/money';
import { proofOf, type ProofJson } from '@nadi/proof/proof';
import { reserveMessage } from '@nadi/proof/reserves';
import { buildTree, leafNode, nodeBytes, toHex, treeRoot, userKey, writeNode, type SumTree } from '@nadi/proof/tree';
import { main, verifyReserves, type VerifyOptions } from './verify-reserves.ts';

// The independent verifier (docs/transparency.md "The verifier") against a Hardhat node with the real
// ProofPublisher and a stand-in app: a tiny HTTP server answering the public transparency routes
// (summary, snapshot, tree, tree.bin) from trees built here with packages/proof, sealed with the
// request envelope when it is on, as the real server does. Each test makes the platform honest or
// dishonest in one way and expects the verifier to say so.
let chain: LocalChain;
let contracts: LocalContracts;
let client: ReturnType<typeof publicClientFor>;
let app: FakeApp;
const platform = 'nadi.test';
const owner = privateKeyToAccount(hardhatDevPrivateKeys[0] as Hex);
const coldAccount = privateKeyToAccount(`0x${randomBytes(32).toString('hex')}`);

beforeAll(async () => {
  chain = await startLocalChain();
  contracts = await deployLocalContracts(chain.rpcUrl);
  client = publicClientFor(chain.rpcUrl, chain.chainId);
  const funder = localWalletClient(chain.rpcUrl, privateKeyToAccount(hardhatDevPrivateKeys[1] as Hex));
  for (const token of [contracts.nadi, contracts.usdt]) {
    const hash = await funder.writeContract({ address: token, abi: nadiTokenAbi, functionName: 'transfer', args: [coldAccount.address, parseEther('500')] });
    await client.waitForTransactionReceipt({ hash });
  }
  await mineBlocks(chain.rpcUrl, 2);
  app = await startFakeApp();
}, 120_000);
afterAll(async () => {
  await app?.close();
  await chain?.stop();
});

// ---------------------------------------------------------------------------------------------
// A platform: its liabilities tree, its rewards tree, its reserves, what it publishes on chain.

interface User {
  id: number;
  sums: bigint[];
  /** Leaves the user's amounts are split into (the last takes the rest). */
  parts?: number;
}

interface BuiltTree {
  scope: string;
  dims: readonly string[];
  leaves: Uint8Array;
  tree: SumTree;
  /** user id → leaf indexes, part by part, and the user's salt. */
  owners: Map<number, { salt: Uint8Array; indexes: number[] }>;
}

function build(scope: string, dims: readonly string[], users: User[]): BuiltTree {
  const rows: { userId: number; part: number; sums: bigint[] }[] = [];
  for (const user of users) {
    const parts = user.parts ?? 1;
    for (let p = 0; p < parts; p += 1) {
      const sums = user.sums.map((s) => (p === parts - 1 ? s - (s / BigInt(parts)) * BigInt(parts - 1) : s / BigInt(parts)));
      rows.push({ userId: user.id, part: p, sums });
    }
  }
  const leaves = new Uint8Array(rows.length * nodeBytes(dims.length));
  const owners = new Map<number, { salt: Uint8Array; indexes: number[] }>();
  rows.forEach((row, i) => {
    const entry = owners.get(row.userId) ?? { salt: new Uint8Array(randomBytes(32)), indexes: [] };
    owners.set(row.userId, entry);
    entry.indexes.push(i);
    writeNode(leaves, i, leafNode(userKey(entry.salt, scope, row.userId), row.part, row.sums));
  });
  return { scope, dims, leaves, tree: buildTree(leaves, dims.length), owners };
}

function proofFor(built: BuiltTree, userId: number): ProofJson {
  const owned = built.owners.get(userId)!;
  return proofOf(built.tree, { scope: built.scope, dims: [...built.dims], userId, salt: owned.salt, indexes: owned.indexes });
}

const honestUsers = (): User[] => [
  { id: 11, sums: [parseEther('120.5'), parseEther('30')] },
  { id: 12, sums: [parseEther('7'), 0n], parts: 2 },
  { id: 13, sums: [0n, parseEther('64.25')] },
  { id: 14, sums: [parseEther('1000'), parseEther('1')], parts: 3 },
  { id: 15, sums: [parseEther('0.000001'), parseEther('2')] },
];

async function signedReserve(
  account: PrivateKeyAccount,
  address: Address,
  role: ReserveAddress['role'],
  label: string,
  blockNumber: bigint,
): Promise<ReserveAddress> {
  const message = reserveMessage({ platform, address });
  const balance = (token: Address) => client.readContract({ address: token, abi: nadiTokenAbi, functionName: 'balanceOf', args: [address], blockNumber });
  return {
    address,
    role,
    label,
    message,
    signature: await account.signMessage({ message }),
    signer: account.address,
    balances: { NADI: toDecimalString(await balance(contracts.nadi)), USDT: toDecimalString(await balance(contracts.usdt)) },
  };
}

let nextSnapshot = 1;

interface Platform {
  id: number;
  liabilities: BuiltTree;
  rewards: BuiltTree;
  detail: SnapshotDetail;
}

/**
 * An honest platform's snapshot, published on chain; `tamper` changes what the app serves or what it
 * publishes (the tree it builds, the root it puts on chain) before it is served.
 */
async function platformSnapshot(
  tamper: { users?: User[]; publishedRoot?: Hex; publishedNadi?: bigint; reserves?: (r: ReserveAddress[]) => ReserveAddress[] } = {},
): Promise<Platform> {
  const id = nextSnapshot++;
  const epoch = 40 + id;
  const liabilities = build(`snapshot:${id}`, liabilityDims, tamper.users ?? honestUsers());
  const rewards = build(`rewards:${epoch}`, rewardKinds, [
    { id: 11, sums: [parseEther('3'), parseEther('1'), 0n, parseEther('0.5')] },
    { id: 14, sums: [parseEther('9'), 0n, parseEther('2'), 0n] },
  ]);
  const root = treeRoot(liabilities.tree);
  const rewardsRoot = treeRoot(rewards.tree);
  const rewardsTotal = rewardsRoot.sums.reduce((a, b) => a + b, 0n);
  const blockNumber = (await client.getBlockNumber({ cacheTime: 0 })) - 2n;
  const honestReserves = [
    await signedReserve(owner, owner.address, 'hot_wallet', 'Hot wallet', blockNumber),
    await signedReserve(owner, contracts.paymentGateway, 'payment_gateway', 'Payment gateway', blockNumber),
    await signedReserve(coldAccount, coldAccount.address, 'cold', 'Cold wallet', blockNumber),
  ];
  const reserves = tamper.reserves ? tamper.reserves(honestReserves) : honestReserves;
  const hash = await localWalletClient(chain.rpcUrl, deployerAddress).writeContract({
    address: contracts.proofPublisher,
    abi: proofPublisherAbi,
    functionName: 'publish',
    args: [
      BigInt(id),
      BigInt(epoch),
      blockNumber,
      tamper.publishedRoot ?? (toHex(root.hash) as Hex),
      tamper.publishedNadi ?? root.sums[0]!,
      root.sums[1]!,
      toHex(rewardsRoot.hash) as Hex,
      rewardsTotal,
    ],
  });
  await client.waitForTransactionReceipt({ hash });
  const reserveSum = (asset: 'NADI' | 'USDT') => reserves.reduce((a, r) => a + parseEther(r.balances[asset]), 0n);
  const detail: SnapshotDetail = {
    id,
    epoch,
    trigger: 'epoch',
    taken_at: '2026-11-28T00:00:00.000Z',
    block_number: blockNumber.toString(),
    users: liabilities.owners.size,
    leaf_count: liabilities.leaves.length / nodeBytes(2),
    liabilities_root: toHex(root.hash),
    liabilities_sums: root.sums.map(String),
    rewards_root: toHex(rewardsRoot.hash),
    cover: liabilityDims.map((asset, d) => ({
      asset,
      reserves: toDecimalString(reserveSum(asset)),
      liabilities: toDecimalString(root.sums[d]!),
      ratio: null,
    })),
    publication: { state: 'published', chain_id: 31337, contract: contracts.proofPublisher, tx_hash: hash, block_number: null, published_at: null },
    reserves,
  };
  return { id, liabilities, rewards, detail };
}

// ---------------------------------------------------------------------------------------------
// The stand-in app.

interface FakeApp {
  url: string;
  serve(p: Platform): void;
  /** Sealed requests only (ENCRYPTION=on), as production answers. */
  setEncryption(on: boolean): Promise<void>;
  /** Paths requested plain since the last serve(). */
  plainRequests: string[];
  close(): Promise<void>;
}

async function startFakeApp(): Promise<FakeApp> {
  let current: Platform | null = null;
  let key: EnvelopeKey | null = null;
  const plainRequests: string[] = [];
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
  };
  const ok = (data: unknown) => ({ code: 200, msg: 'ok', data });
  const notFound = { code: 404, msg: 'not found', reason: 'NOT_FOUND' };
  const answer = (path: string, input: Record<string, string>): [number, unknown] => {
    const p = current;
    if (!p) return [404, notFound];
    const trees = new Map([
      [p.liabilities.scope, p.liabilities],
      [p.rewards.scope, p.rewards],
    ]);
    if (path === '/api/v1/transparency/summary') return [200, ok({ latest: p.detail, contract: { chain_id: 31337, address: contracts.proofPublisher } })];
    if (path === '/api/v1/transparency/snapshot') return Number(input.id) === p.id ? [200, ok(p.detail)] : [404, notFound];
    if (path === '/api/v1/transparency/tree') {
      const t = trees.get(input.scope ?? '');
      if (!t) return [404, notFound];
      const root = treeRoot(t.tree);
      return [
        200,
        ok({
          scope: t.scope,
          dims: t.dims,
          leaf_count: t.leaves.length / nodeBytes(t.dims.length),
          root: { hash: toHex(root.hash), sums: root.sums.map(String) },
          download: `${treeDownloadPath}?scope=${encodeURIComponent(t.scope)}`,
        }),
      ];
    }
    return [404, notFound];
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      void (async () => {
        if (url.pathname === '/api/v1/common/config') {
          return json(
            res,
            200,
            ok({
              chain: {
                id: 31337,
                name: 'Local',
                rpc_url: '/rpc',
                explorer_url: null,
                nadi_address: contracts.nadi,
                usdt_address: contracts.usdt,
                proof_publisher_address: contracts.proofPublisher,
              },
              encryption: { enabled: key !== null, keys: key ? [{ kid: key.kid, public_key: key.publicKey }] : [] },
            }),
          );
        }
        if (url.pathname === treeDownloadPath) {
          const scope = url.searchParams.get('scope');
          const t = [current?.liabilities, current?.rewards].find((x) => x?.scope === scope);
          if (!t) return json(res, 404, notFound);
          res.writeHead(200, { 'content-type': 'application/octet-stream' });
          return res.end(Buffer.from(t.leaves));
        }
        if (key && req.method === 'POST') {
          const form = Object.fromEntries(new URLSearchParams(body));
          const opened = await openRequest({ keys: [key], form, method: 'GET', path: url.pathname });
          const [status, answered] = answer(url.pathname, (opened.payload.input ?? {}) as Record<string, string>);
          return json(res, status, { sealed: await opened.sealResponse(JSON.stringify(answered)) });
        }
        plainRequests.push(url.pathname);
        if (key) return json(res, 400, { code: 400, msg: 'sealed requests only', reason: 'ENVELOPE_REQUIRED' });
        const [status, answered] = answer(url.pathname, Object.fromEntries(url.searchParams));
        return json(res, status, answered);
      })().catch((error: unknown) => json(res, 500, { code: 500, msg: String(error) }));
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    serve(p) {
      current = p;
      plainRequests.length = 0;
    },
    async setEncryption(on) {
      key = on ? await envelopeKeyFromSeed('k1', newEnvelopeSeed()) : null;
    },
    plainRequests,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

// ---------------------------------------------------------------------------------------------

function options(extra: Partial<VerifyOptions> = {}): VerifyOptions {
  return { url: app.url, rpc: chain.rpcUrl, platform, ...extra };
}

const failed = (v: { checks: { name: string; ok: boolean }[] }) => v.checks.filter((c) => !c.ok).map((c) => c.name);

describe('verify:reserves', () => {
  it('passes an honest platform: every leaf rebuilt, roots and totals as published, reserves signed and on chain', async () => {
    const p = await platformSnapshot();
    app.serve(p);
    const verdict = await verifyReserves(options());
    expect(failed(verdict)).toEqual([]);
    expect(verdict.ok).toBe(true);
    expect(verdict.snapshotId).toBe(p.id);
    const names = verdict.checks.map((c) => c.name);
    for (const name of [
      'chain',
      'published on chain',
      'tree',
      'tree: no negative amount',
      'root on chain',
      'totals on chain',
      'rewards root on chain',
      'cover NADI',
    ])
      expect(names).toContain(name);
    expect(names.filter((n) => n.endsWith(': signature'))).toHaveLength(3);
  }, 60_000);

  it('works with the request envelope on: every JSON route sealed, only the config and the tree file plain', async () => {
    const p = await platformSnapshot();
    await app.setEncryption(true);
    app.serve(p);
    try {
      const verdict = await verifyReserves(options());
      expect(failed(verdict)).toEqual([]);
      expect(app.plainRequests).toEqual([]);
    } finally {
      await app.setEncryption(false);
    }
  }, 60_000);

  it('fails a root on chain that is not the tree’s', async () => {
    app.serve(await platformSnapshot({ publishedRoot: `0x${'ab'.repeat(32)}` }));
    const verdict = await verifyReserves(options());
    expect(failed(verdict)).toEqual(['root on chain']);
  }, 60_000);

  it('fails totals on chain that are not the tree’s', async () => {
    app.serve(await platformSnapshot({ publishedNadi: 1n }));
    expect(failed(await verifyReserves(options()))).toEqual(['totals on chain']);
  }, 60_000);

  it('fails a forged reserve signature, and balances the chain does not show', async () => {
    const forger = privateKeyToAccount(`0x${randomBytes(32).toString('hex')}`);
    const p = await platformSnapshot({
      reserves: (rs) =>
        rs.map((r) => (r.role === 'hot_wallet' ? { ...r, balances: { ...r.balances, USDT: toDecimalString(parseEther(r.balances.USDT) + 1n) } } : r)),
    });
    // The cold address's message, signed by a key that is not the address's.
    const cold = p.detail.reserves[2]!;
    cold.signature = await forger.signMessage({ message: cold.message });
    app.serve(p);
    const verdict = await verifyReserves(options());
    expect(failed(verdict)).toEqual([
      `reserve ${getAddress(owner.address)} (hot_wallet, Hot wallet): USDT`,
      `reserve ${coldAccount.address} (cold, Cold wallet): signature`,
      'cover USDT',
    ]);
  }, 60_000);

  it('fails a reserve message naming another platform', async () => {
    const p = await platformSnapshot();
    app.serve(p);
    expect(failed(await verifyReserves(options({ platform: 'other.example' })))).toEqual(
      p.detail.reserves.map((r) => `reserve ${r.address} (${r.role}, ${r.label}): message`),
    );
  }, 60_000);

  it('fails a negative leaf, even one whose tree adds up and is published', async () => {
    const users = honestUsers();
    users.push({ id: 16, sums: [-parseEther('5'), 0n] });
    app.serve(await platformSnapshot({ users }));
    const verdict = await verifyReserves(options());
    expect(failed(verdict)).toEqual(['tree: no negative amount']);
    expect(verdict.checks.find((c) => c.name === 'tree: no negative amount')?.detail).toBe('leaf 8 is negative');
  }, 60_000);

  it('with --proof: passes a user’s honest proof and fails one whose balance the platform lowered', async () => {
    const honest = await platformSnapshot();
    app.serve(honest);
    const mine = { ...proofFile(honest, 14), expected: honestUsers()[3]!.sums.map(String) };
    const passed = await verifyReserves(options({ proof: mine }));
    expect(failed(passed)).toEqual([]);
    expect(passed.checks.find((c) => c.name === 'your proof: path to the published root')?.detail).toMatch(
      /3 part\(s\) lead to the published root; they add up to 1000 NADI, 1 USDT, what you are owed/,
    );

    // The platform owes user 14 a thousand NADI but puts 900 in the tree (and publishes that tree).
    const users = honestUsers();
    users[3] = { ...users[3]!, sums: [parseEther('900'), parseEther('1')] };
    const lowered = await platformSnapshot({ users });
    app.serve(lowered);
    const proof = { ...proofFile(lowered, 14), expected: honestUsers()[3]!.sums.map(String) };
    const verdict = await verifyReserves(options({ proof }));
    expect(failed(verdict)).toEqual(['your proof: path to the published root']);
    expect(verdict.checks.find((c) => !c.ok)?.detail).toMatch(
      /do not add up to what the user is owed \(your parts: 900 NADI, 1 USDT; you are owed: 1000 NADI, 1 USDT\)/,
    );
    // The user may say what they are owed themselves (--expect), whatever the file says.
    expect(failed(await verifyReserves(options({ proof: { ...proof, expected: undefined }, expected: ['1000', '1'] })))).toEqual([
      'your proof: path to the published root',
    ]);
    // A proof edited to show 1000 does not climb to the root.
    const edited = structuredClone(proof);
    edited.proof.parts[0]!.sums[0] = (BigInt(edited.proof.parts[0]!.sums[0]!) + parseEther('100')).toString();
    expect(failed(await verifyReserves(options({ proof: edited })))).toEqual([
      'your proof: path to the published root',
      'your proof: leaves in the downloaded tree',
    ]);
  }, 60_000);

  it('with --proof: fails a user the published tree omits', async () => {
    // The platform shows user 13 a proof from a tree with them, but publishes and serves one without.
    const p = await platformSnapshot({ users: honestUsers().filter((u) => u.id !== 13) });
    const privateTree = build(p.liabilities.scope, liabilityDims, honestUsers());
    app.serve(p);
    const verdict = await verifyReserves(options({ proof: { proof: proofFor(privateTree, 13), expected: honestUsers()[2]!.sums.map(String) } }));
    expect(failed(verdict)).toEqual(['your proof: path to the published root', 'your proof: leaves in the downloaded tree']);
    expect(verdict.checks.find((c) => c.name === 'your proof: path to the published root')?.detail).toMatch(/differs from the one published on chain/);
    // A proof without any leaf of the user is "not included".
    const empty = { ...proofFor(privateTree, 13), parts: [] };
    const none = await verifyReserves(options({ proof: empty }));
    expect(none.checks.find((c) => c.name === 'your proof: path to the published root')?.detail).toMatch(/has no leaf of this user/);
    expect(none.ok).toBe(false);
  }, 60_000);

  it('runs as `npm run verify:reserves`: prints each check and the verdict, exit code 0 only when all pass', async () => {
    const p = await platformSnapshot();
    app.serve(p);
    const dir = mkdtempSync(join(tmpdir(), 'verify-reserves-'));
    try {
      const proofPath = join(dir, 'my-proof.json');
      writeFileSync(proofPath, JSON.stringify({ code: 200, msg: 'ok', data: { ...proofFile(p, 11), expected: honestUsers()[0]!.sums.map(String) } }));
      const run = await runCli(['--url', app.url, '--rpc', chain.rpcUrl, '--platform', platform, '--proof', proofPath]);
      expect(run.stdout).toContain(`Verifying ${app.url}, snapshot ${p.id}`);
      expect(run.stdout).toMatch(/^PASS {2}root on chain: rebuilt 0x[0-9a-f]{64}; on chain 0x[0-9a-f]{64}$/m);
      expect(run.stdout).toMatch(/^VERDICT: PASS, all \d+ checks passed$/m);
      expect(run.code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const lines: string[] = [];
    expect(await main(['--url', app.url, '--rpc', chain.rpcUrl, '--platform', 'elsewhere.example'], (l) => lines.push(l))).toBe(1);
    expect(lines.at(-1)).toMatch(/^VERDICT: FAIL, 3 of \d+ checks failed$/);
    expect(lines.filter((l) => l.startsWith('FAIL  '))).toHaveLength(3);
  }, 60_000);

  it('refuses bad arguments and an unreachable app with exit code 2', async () => {
    const lines: string[] = [];
    expect(await main(['--url', 'nope', '--rpc', chain.rpcUrl, '--snapshot', 'x', '--expect', '1'], (l) => lines.push(l))).toBe(2);
    expect(lines.join('\n')).toMatch(/--url must be[\s\S]*--snapshot must be[\s\S]*--expect must be 2 amounts[\s\S]*--expect goes with --proof[\s\S]*Usage:/);
    lines.length = 0;
    expect(await main(['--url', 'http://127.0.0.1:9', '--rpc', chain.rpcUrl], (l) => lines.push(l))).toBe(2);
    expect(lines.join('\n')).toMatch(/could not verify: the app at http:\/\/127.0.0.1:9 does not answer/);
    expect(await main(['--bogus'], () => undefined)).toBe(2);
  });

  it('fails a snapshot the contract does not hold', async () => {
    const p = await platformSnapshot();
    app.serve({ ...p, detail: { ...p.detail, id: 9_999 }, id: 9_999 });
    const verdict = await verifyReserves(options({ snapshotId: 9_999 }));
    expect(failed(verdict)).toContain('published on chain');
    expect(verdict.checks.find((c) => c.name === 'published on chain')?.detail).toMatch(/holds no snapshot 9999/);
  }, 60_000);
});

function proofFile(p: Platform, userId: number) {
  return { snapshot: p.detail, proof: proofFor(p.liabilities, userId) };
}

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'verify-reserves.ts'), ...args], { stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}
