// The liabilities snapshot (docs/transparency.md): on a population that saves, claims, trades and mines
// through the real routes and a crowd funded set-based, a snapshot's root carries exactly what the
// ledger says users are owed; every user's proof verifies against the root with their own figure
// recomputed from their history, even after they move money; and a user left out, a user's balance
// lowered, and a negative part hidden behind a correct total are each caught by that user's check.
// Snapshots wait while an epoch is being posted; an operator's is audited and limited to one a minute.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liabilityDims } from '@nadi/api/transparency';
import { verifyProof, type ProofJson } from '@nadi/proof/proof';
import { buildTree, leafNode, nodeBytes, readNode, toHex, treeRoot, userKey, writeNode } from '@nadi/proof/tree';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { freezeFunds, fundUser, tokens } from '../../test/money.ts';
import { insertProduct, join, newSaver, pledgePost, type Saver } from '../../test/pledge.ts';
import { createUsers, fundEveryone } from '../../test/settlement-population.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';
import { auditLedger, postFlow, systemAccount, transfer, userAccount } from '../ledger/index.ts';
import { settleDueEpochs } from '../mining/index.ts';
import { ownerBytes } from './build.ts';
import { balanceProofOf, TreeCache } from './proofs.ts';
import { findSnapshot } from './repo.ts';
import { operatorSnapshotIntervalMs, takeSnapshot } from './snapshot.ts';

const epochMs = 600_000;
const silent = { error: () => undefined, info: () => undefined };
const admin = newAccount();
let t: TestApp;
let db: Db;
let savers: Saver[];
let adminToken: string;

async function allUserIds(): Promise<number[]> {
  return rowsOf<{ id: number }>(await db.execute(sql`select distinct user_id as id from ledger_accounts where user_id is not null order by 1`)).map((r) =>
    Number(r.id),
  );
}

/** What the tables say each user is owed now (a fifth way of adding it up, for the test alone). */
async function owedNow(userId: number): Promise<bigint[]> {
  const row = rowsOf<{ nadi: string; usdt: string }>(
    await db.execute(sql`
      select (coalesce((select sum(available + frozen) from ledger_accounts where user_id = ${userId} and kind in ('fund', 'trade') and asset = 'NADI'), 0)
            + coalesce((select sum(amount) from pledge_positions where user_id = ${userId} and status = 'active'), 0)
            + coalesce((select claimable from pledge_interest where user_id = ${userId}), 0)
            + coalesce((select locked + claimable from mining_vesting where user_id = ${userId}), 0))::text as nadi,
             coalesce((select sum(available + frozen) from ledger_accounts where user_id = ${userId} and kind in ('fund', 'trade') and asset = 'USDT'), 0)::text as usdt`),
  )[0]!;
  return [BigInt(row.nadi), BigInt(row.usdt)];
}

async function snapshotNow(): Promise<number> {
  t.clock.advance(operatorSnapshotIntervalMs + 1_000);
  const outcome = await takeSnapshot(t.app.deps, 'operator', null);
  if (outcome.status !== 'taken') throw new Error(`snapshot not taken: ${JSON.stringify(outcome)}`);
  return outcome.snapshotId;
}

async function proofOfUser(snapshotId: number, userId: number) {
  return balanceProofOf(t.app.deps, new TreeCache(db, silent), userId, snapshotId);
}

function check(answer: { proof: ProofJson; expected: string[]; snapshot: { liabilities_root: string } }, userId: number, published: string) {
  return verifyProof(answer.proof, { userId, expectedSums: answer.expected.map((s) => BigInt(s)), publishedRoot: published });
}

beforeAll(async () => {
  t = await createTestApp({ EPOCH_SECONDS: '600', OPERATOR_ADDRESSES: admin.address, SESSION_IDLE_MS: String(7 * 86_400_000) });
  db = t.database.db;
  adminToken = await signIn(t.app, admin, rootInviteCode);
  savers = [];
  for (let i = 0; i < 3; i += 1) savers.push(await newSaver(t));
  // Every trial miner counts in the epochs settled here (their own sign-up's and the seeded root's).
  await db.execute(sql`update miners set starts_epoch = 0, ends_epoch = 100 where kind = 'trial'`);
  await createUsers(db, 60);
  await fundEveryone(db, tokens(100), `test-crowd:${randomUUID()}`);
  // A third of the crowd holds USDT too (one flow, set-based like fundEveryone).
  await db.execute(sql`
    select ledger_post_flows(jsonb_build_array(jsonb_build_object('key', ${`test-usdt:${randomUUID()}`}::text, 'user_id', null, 'type', 'data_adjustment',
      'params_hash', 'test', 'legs', (select jsonb_agg(jsonb_build_object('type', 'data_adjustment', 'asset', 'USDT', 'amount', (7 * 1000000000000000000::numeric + u.id)::text,
        'debit_ref', 'system:treasury:USDT', 'debit_user', null, 'debit_kind', 'treasury', 'debit_part', 'available',
        'credit_ref', u.id || ':fund:USDT', 'credit_user', u.id, 'credit_kind', 'fund', 'credit_part', 'available', 'memo', null))
        from users u where u.id % 3 = 0))), now())`);
  await fundUser(db, savers[0]!.id, 'USDT', tokens(250));
  const product = await insertProduct(db, {
    ppm: 5_000,
    startsAt: new Date(t.clock.now().getTime() - 86_400_000),
    endsAt: new Date(t.clock.now().getTime() + 30 * 86_400_000),
  });
  for (const s of savers.slice(0, 3)) expect((await join(t, s, product, '1000')).statusCode).toBe(200);
  // Epochs 0 and 1 settle: mining income (a quarter now, the rest vesting) and a day of savings interest.
  t.clock.advance(2 * epochMs + 1_000);
  const settled = await settleDueEpochs({ db, settings: t.settings, now: t.clock.now });
  expect(settled.map((s) => s.epoch)).toEqual([0, 1]);
  // Claims, a redemption, a move to the trade account and an order's hold: every kind of liability moves.
  expect((await pledgePost(t, savers[0]!, '/api/v1/mining/claim', {})).statusCode).toBe(200);
  expect((await pledgePost(t, savers[1]!, '/api/v1/financial/receive', {})).statusCode).toBe(200);
  const position = rowsOf<{ id: number }>(await db.execute(sql`select id from pledge_positions where user_id = ${savers[2]!.id}`))[0]!;
  expect((await pledgePost(t, savers[2]!, '/api/v1/financial/redeem', { id: Number(position.id) })).statusCode).toBe(200);
  expect((await pledgePost(t, savers[0]!, '/api/v1/wallet/transfer', { asset: 'NADI', from: 'fund', to: 'trade', amount: '500' })).statusCode).toBe(200);
  await freezeFunds(db, `test-hold:${randomUUID()}`, { userId: savers[0]!.id, kind: 'trade', asset: 'NADI', amount: tokens(120), reason: 'an order' });
  // And one who registered but holds nothing at all (a zero leaf).
  savers.push(await newSaver(t, 0));
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('a liabilities snapshot', () => {
  let id: number;
  beforeAll(async () => {
    id = await snapshotNow();
  });

  it('carries exactly what the ledger says users are owed, per asset, and every user holding accounts', async () => {
    const snapshot = (await findSnapshot(db, id))!;
    const books = rowsOf<{ nadi: string; usdt: string; owed: string }>(
      await db.execute(sql`
        select (select sum(available + frozen) from ledger_accounts where user_id is not null and kind in ('fund', 'trade') and asset = 'NADI')::text as nadi,
               (select sum(available + frozen) from ledger_accounts where user_id is not null and kind in ('fund', 'trade') and asset = 'USDT')::text as usdt,
               (select sum(available + frozen) from ledger_accounts where user_id is null and kind in ('vesting', 'pledged', 'savings_interest'))::text as owed`),
    )[0]!;
    const owedAccounts = BigInt(books.owed);
    // The population owes something in every source, so each one's part of the sum is tested.
    expect(owedAccounts).toBeGreaterThan(0n);
    for (const kind of ['vesting', 'pledged', 'savings_interest']) {
      const held = rowsOf<{ a: string }>(
        await db.execute(sql`select available::text as a from ledger_accounts where user_id is null and kind = ${kind} and asset = 'NADI'`),
      );
      expect(BigInt(held[0]!.a), kind).toBeGreaterThan(0n);
    }
    expect(snapshot.rootSums).toEqual([BigInt(books.nadi) + owedAccounts, BigInt(books.usdt)]);
    expect((await auditLedger(db)).problems).toEqual([]);
    expect(snapshot.users).toBe((await allUserIds()).length);
    expect(snapshot.leafCount).toBeGreaterThanOrEqual(snapshot.users);
    expect(snapshot.leafCount).toBeLessThanOrEqual(3 * snapshot.users);
    expect(snapshot.epoch).toBe(1);
    const covers = rowsOf<{ asset: string; liabilities: string; reserves: string }>(
      await db.execute(sql`select asset, liabilities::text, reserves::text from proof_snapshot_covers where snapshot_id = ${id} order by asset`),
    );
    expect(covers).toEqual(liabilityDims.map((asset, d) => ({ asset, liabilities: snapshot.rootSums[d]!.toString(), reserves: '0' })));
  });

  it('gives every user a proof that verifies against the root, with their figure from their own history', async () => {
    const snapshot = (await findSnapshot(db, id))!;
    const cache = new TreeCache(db, silent);
    const ids = await allUserIds();
    let zero = 0;
    for (const userId of ids) {
      const answer = await balanceProofOf(t.app.deps, cache, userId, id);
      const result = check(answer, userId, snapshot.rootHash);
      expect(result.failure, `user ${userId}`).toBeNull();
      // The figure from the user's history is what the tables said at the snapshot (nothing moved since).
      expect(answer.expected, `user ${userId}`).toEqual((await owedNow(userId)).map(String));
      if (answer.expected.every((x) => x === '0')) zero += 1;
    }
    expect(zero).toBeGreaterThan(0);
  });

  it('keeps verifying after users move money: their figure is recomputed as of the snapshot', async () => {
    const snapshot = (await findSnapshot(db, id))!;
    const [a, b] = [savers[0]!, savers[1]!];
    const before = await proofOfUser(id, a.id);
    expect((await pledgePost(t, a, '/api/v1/wallet/transfer', { asset: 'NADI', from: 'trade', to: 'fund', amount: '50' })).statusCode).toBe(200);
    expect((await pledgePost(t, b, '/api/v1/financial/redeem', { id: await positionOf(b.id) })).statusCode).toBe(200);
    await fundUser(db, a.id, 'USDT', tokens(3));
    for (const who of [a, b]) {
      const answer = await proofOfUser(id, who.id);
      expect(check(answer, who.id, snapshot.rootHash).failure, `user ${who.id}`).toBeNull();
    }
    expect((await proofOfUser(id, a.id)).expected).toEqual(before.expected);
    expect((await owedNow(a.id))[1]).not.toBe(BigInt(before.expected[1]!));
  });

  it('answers the proof through the API to its owner only, and a user registered later learns they are not in it', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/transparency/proof/balance?snapshot_id=${id}`,
      headers: { authorization: savers[3]!.token },
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.proof.user_id).toBe(savers[3]!.id);
    expect(data.snapshot.id).toBe(id);
    expect(check(data, savers[3]!.id, data.snapshot.liabilities_root).failure).toBeNull();
    const late = await signIn(t.app, newAccount(), rootInviteCode);
    const refused = await t.app.inject({
      method: 'GET',
      url: `/api/v1/transparency/proof/balance?snapshot_id=${id}`,
      headers: { authorization: late, lang: 'EN' },
    });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({
      reason: 'PROOF_NOT_INCLUDED',
      msg: 'Your account was opened after this snapshot was taken, so it has no entry in it',
    });
  });
});

async function positionOf(userId: number): Promise<number> {
  const row = rowsOf<{ id: number }>(
    await db.execute(sql`select id from pledge_positions where user_id = ${userId} and status = 'active' order by id limit 1`),
  )[0];
  return Number(row?.id);
}

// ─── A dishonest platform: the stored tree changed after the fact, and the changed root published ──

interface StoredTree {
  dims: number;
  leaves: Uint8Array;
  owners: Uint8Array;
}

async function readStored(scope: string): Promise<StoredTree> {
  const rows = rowsOf<{ leaves: Uint8Array; owners: Uint8Array }>(
    await db.execute(sql`select leaves, owners from proof_tree_chunks where scope = ${scope} order by chunk`),
  );
  expect(rows).toHaveLength(1);
  return { dims: 2, leaves: new Uint8Array(rows[0]!.leaves), owners: new Uint8Array(rows[0]!.owners) };
}

/** Stores changed leaves and publishes their root, as a platform hiding a change would. */
async function storeAndPublish(scope: string, tree: StoredTree): Promise<string> {
  const leafCount = tree.leaves.length / nodeBytes(tree.dims);
  const root = treeRoot(buildTree(tree.leaves, tree.dims));
  await db.execute(
    sql`update proof_tree_chunks set leaves = ${Buffer.from(tree.leaves)}::bytea, owners = ${Buffer.from(tree.owners)}::bytea where scope = ${scope}`,
  );
  await db.execute(
    sql`update proof_trees set leaf_count = ${leafCount}, root_hash = ${toHex(root.hash)}, root_sums = ${`{${root.sums.join(',')}}`}::numeric[] where scope = ${scope}`,
  );
  return toHex(root.hash);
}

function leavesOf(tree: StoredTree, userId: number): { index: number; part: number }[] {
  const view = new DataView(tree.owners.buffer, tree.owners.byteOffset);
  const found: { index: number; part: number }[] = [];
  for (let i = 0; i < tree.owners.length / ownerBytes; i += 1) {
    if (view.getUint32(i * ownerBytes) === userId) found.push({ index: i, part: tree.owners[i * ownerBytes + 4]! });
  }
  return found.sort((x, y) => x.part - y.part);
}

async function saltOfUser(userId: number): Promise<Uint8Array> {
  const row = rowsOf<{ salt: Uint8Array }>(await db.execute(sql`select salt from proof_salts where user_id = ${userId}`))[0]!;
  return new Uint8Array(row.salt);
}

describe('what a user’s own check catches', () => {
  it('a balance lowered in the tree (and the lowered root published)', async () => {
    const id = await snapshotNow();
    const scope = `snapshot:${id}`;
    const victim = savers[0]!.id;
    const tree = await readStored(scope);
    const [first] = leavesOf(tree, victim);
    const leaf = readNode(tree.leaves, first!.index, 2);
    const lowered = [leaf.sums[0]! > 0n ? leaf.sums[0]! - 1n : 0n, leaf.sums[1]! > 0n ? leaf.sums[1]! - 1n : 0n];
    expect(lowered).not.toEqual(leaf.sums);
    writeNode(tree.leaves, first!.index, leafNode(userKey(await saltOfUser(victim), scope, victim), first!.part, lowered));
    const published = await storeAndPublish(scope, tree);
    const result = check(await proofOfUser(id, victim), victim, published);
    expect(result.failure).toBe('amounts_differ');
    // Everybody else still verifies: only the user lowered can notice.
    expect(check(await proofOfUser(id, savers[1]!.id), savers[1]!.id, published).failure).toBeNull();
  });

  it('a negative part hidden behind the right total (and that root published)', async () => {
    const id = await snapshotNow();
    const scope = `snapshot:${id}`;
    const tree = await readStored(scope);
    const ids = await allUserIds();
    const victim = ids.find((u) => leavesOf(tree, u).length >= 2)!;
    const [a, b] = leavesOf(tree, victim);
    const key = userKey(await saltOfUser(victim), scope, victim);
    const [left, right] = [readNode(tree.leaves, a!.index, 2), readNode(tree.leaves, b!.index, 2)];
    const shift = left.sums[0]! + tokens(1);
    writeNode(tree.leaves, a!.index, leafNode(key, a!.part, [left.sums[0]! - shift, left.sums[1]!]));
    writeNode(tree.leaves, b!.index, leafNode(key, b!.part, [right.sums[0]! + shift, right.sums[1]!]));
    const published = await storeAndPublish(scope, tree);
    const answer = await proofOfUser(id, victim);
    expect(answer.proof.parts.reduce((s, p) => s + BigInt(p.sums[0]!), 0n)).toBe(BigInt(answer.expected[0]!));
    expect(check(answer, victim, published).failure).toBe('negative');
  });

  it('a user left out of the tree (and the smaller root published)', async () => {
    const id = await snapshotNow();
    const scope = `snapshot:${id}`;
    const victim = savers[1]!.id;
    const tree = await readStored(scope);
    const gone = new Set(leavesOf(tree, victim).map((l) => l.index));
    const size = nodeBytes(2);
    const kept = [...Array(tree.owners.length / ownerBytes).keys()].filter((i) => !gone.has(i));
    const smaller: StoredTree = { dims: 2, leaves: new Uint8Array(kept.length * size), owners: new Uint8Array(kept.length * ownerBytes) };
    kept.forEach((from, to) => {
      smaller.leaves.set(tree.leaves.subarray(from * size, (from + 1) * size), to * size);
      smaller.owners.set(tree.owners.subarray(from * ownerBytes, (from + 1) * ownerBytes), to * ownerBytes);
    });
    const published = await storeAndPublish(scope, smaller);
    const answer = await proofOfUser(id, victim);
    expect(answer.proof.parts).toEqual([]);
    expect(answer.expected[0]).not.toBe('0');
    expect(check(answer, victim, published).failure).toBe('not_included');
    // A user who never checks would never know: the others' proofs all verify against that root.
    expect(check(await proofOfUser(id, savers[0]!.id), savers[0]!.id, published).failure).toBeNull();
  });
});

describe('when a snapshot may be taken', () => {
  it('an operator’s is audited, answered as the contract says, and refused again within a minute', async () => {
    t.clock.advance(operatorSnapshotIntervalMs + 1_000);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/operator/transparency/snapshot', payload: {}, headers: { authorization: adminToken } });
    expect(res.statusCode).toBe(200);
    const info = res.json().data;
    expect(info).toMatchObject({ trigger: 'operator', epoch: 1, block_number: '0', rewards_root: null, publication: { state: 'unpublished' } });
    expect(info.cover.map((c: { asset: string }) => c.asset)).toEqual(['NADI', 'USDT']);
    const audit = rowsOf<{ target_id: string }>(await db.execute(sql`select target_id from audit_log where action = 'transparency.snapshot'`));
    expect(audit).toEqual([{ target_id: String(info.id) }]);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v1/operator/transparency/snapshot',
      payload: {},
      headers: { authorization: adminToken, lang: 'EN' },
    });
    expect([again.statusCode, again.json().reason]).toEqual([409, 'SNAPSHOT_TOO_SOON']);
    const user = await t.app.inject({
      method: 'POST',
      url: '/api/v1/operator/transparency/snapshot',
      payload: {},
      headers: { authorization: savers[0]!.token },
    });
    expect([user.statusCode, user.json().reason]).toEqual([403, 'FORBIDDEN']);
  });

  it('waits while an epoch is being posted: its payouts are owed but in nobody’s figures yet', async () => {
    const count = async () => Number(rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from proof_snapshots`))[0]!.n);
    const before = await count();
    await db.execute(sql`update mining_epochs set settled_at = null where epoch = 1`);
    try {
      t.clock.advance(operatorSnapshotIntervalMs + 1_000);
      expect(await takeSnapshot(t.app.deps, 'operator', null)).toEqual({ status: 'busy', why: 'posting' });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/operator/transparency/snapshot',
        payload: {},
        headers: { authorization: adminToken, lang: 'EN' },
      });
      expect([res.statusCode, res.json().reason]).toEqual([409, 'SNAPSHOT_BUSY']);
    } finally {
      await db.execute(sql`update mining_epochs set settled_at = computed_at where epoch = 1`);
    }
    expect(await count()).toBe(before);
  });

  it('takes an epoch’s snapshot once, and only while that epoch is the last settled one', async () => {
    expect(await takeSnapshot(t.app.deps, 'epoch', 0)).toEqual({ status: 'busy', why: 'moved' });
    const first = await takeSnapshot(t.app.deps, 'epoch', 1);
    expect(first.status).toBe('taken');
    expect(await takeSnapshot(t.app.deps, 'epoch', 1)).toEqual({ status: 'already' });
    const rows = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from proof_snapshots where trigger = 'epoch' and epoch = 1`));
    expect(rows[0]!.n).toBe(1);
  });
});

describe.runIf(process.env.TEST_DB === 'postgres')('a transfer numbered before the snapshot but committed after it', () => {
  it('is noticed, so the books are read again', async () => {
    const { ledgerHeadIn, ledgerHeadMissed } = await import('../ledger/index.ts');
    const [x, y] = [savers[0]!.id, savers[1]!.id];
    // Each from its own system account: the first one's lock is held while it waits.
    const move = (tx: Parameters<typeof postFlow>[0], userId: number, from: 'treasury' | 'custody') =>
      postFlow(tx, {
        idempotencyKey: `test-late:${randomUUID()}`,
        userId,
        type: 'data_adjustment',
        params: { userId },
        legs: [transfer('data_adjustment', systemAccount(from, 'NADI'), userAccount(userId, 'fund', 'NADI'), tokens(1))],
        result: () => null,
      });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let posted!: () => void;
    const isPosted = new Promise<void>((resolve) => (posted = resolve));
    // A transfer takes its number, then waits before committing; another one commits meanwhile.
    const late = db.transaction(async (tx) => {
      await move(tx, x, 'treasury');
      posted();
      await held;
    });
    await isPosted;
    await db.transaction(async (tx) => move(tx, y, 'custody'));
    const head = await db.transaction((tx) => ledgerHeadIn(tx), { isolationLevel: 'repeatable read', accessMode: 'read only' });
    expect(head.running.length).toBeGreaterThan(0);
    release();
    await late;
    expect(await ledgerHeadMissed(db, head, 5_000)).toBe(true);
    const quiet = await db.transaction((tx) => ledgerHeadIn(tx), { isolationLevel: 'repeatable read', accessMode: 'read only' });
    expect(await ledgerHeadMissed(db, quiet, 5_000)).toBe(false);
  });
});
