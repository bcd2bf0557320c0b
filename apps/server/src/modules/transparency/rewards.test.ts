// An epoch's rewards root and the job that makes it (docs/transparency.md): a population that mines
// (devices, destroys, trials), holds nodes, saves and sits in an invite tree settles an epoch; three
// job rounds at once write its rewards tree and its liabilities snapshot once; the root's sums are what
// each pool paid according to the ledger, kind by kind, and the mining part stays within the emission
// schedule; every earner's income proof verifies against the root with their own income records; the
// published leaves rebuild both roots; the public summary shows the epoch.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emissionOf, miningDefaults } from '@nadi/economy/economy';
import { toDecimalString } from '@nadi/money/money';
import { rewardKinds } from '@nadi/api/transparency';
import { checkTree, verifyProof } from '@nadi/proof/proof';
import { toHex } from '@nadi/proof/tree';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { creditSyntheticFees, seedSyntheticPopulation, seedSyntheticRewards, seedSyntheticTeam } from '../../test/settlement-population.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';
import { AppError } from '../../lib/app-error.ts';
import { paramsAt, settleEpoch, uptimeBeatsNeeded } from '../mining/index.ts';
import { runTransparencyRound } from './job.ts';
import { incomeProofOf, TreeCache } from './proofs.ts';
import { findRewards, findTree, latestSnapshot } from './repo.ts';
import { poolsPaid } from './rewards.ts';

const epochSeconds = 86_400;
const users = 120;
const silent = { error: () => undefined, info: () => undefined };
let t: TestApp;
let db: Db;
let genesis: Date;
let earnerToken: string;
let earnerId: number;
const endOf = (epoch: number) => new Date(genesis.getTime() + (epoch + 1) * epochSeconds * 1000);

beforeAll(async () => {
  t = await createTestApp({ EPOCH_SECONDS: String(epochSeconds), SESSION_IDLE_MS: String(30 * 86_400_000) });
  db = t.database.db;
  genesis = new Date(Math.floor(t.clock.now().getTime() / (epochSeconds * 1000)) * epochSeconds * 1000);
  // A signed-in user whose trial miner counts in epoch 0.
  earnerToken = await signIn(t.app, newAccount(), rootInviteCode);
  earnerId = (await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: earnerToken } })).json().data.id;
  await db.execute(sql`update miners set starts_epoch = 0, ends_epoch = 100 where kind = 'trial'`);
  const createdAt = new Date(genesis.getTime() + 1_000);
  await seedSyntheticPopulation(db, { users, epoch: 0, createdAt, beatsNeeded: uptimeBeatsNeeded({ ...miningDefaults, ...t.settings }) });
  const range = rowsOf<{ first: number; last: number }>(
    await db.execute(sql`select min(id) as first, max(id) as last from users where name like 'miner %'`),
  )[0]!;
  const [first, last] = [Number(range.first), Number(range.last)];
  await seedSyntheticRewards(db, { first, last, holders: users / 5, positions: users / 2, epoch: 0, createdAt });
  await creditSyntheticFees(db, BigInt(users / 5), createdAt);
  await seedSyntheticTeam(db, { first, last, fanouts: [4, 3, 3, 2], boughtAt: createdAt, lateAt: new Date(endOf(0).getTime() + 2_000) });
  t.clock.advance(endOf(0).getTime() + 5_000 - t.clock.now().getTime());
  const outcome = await settleEpoch({ db, settings: t.settings, now: t.clock.now }, 0);
  expect(outcome.status).toBe('settled');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('the job after an epoch settles', () => {
  it('writes the epoch’s rewards tree and its liabilities snapshot once, whatever the number of rounds at once', async () => {
    const rounds = await Promise.all([0, 1, 2].map(() => runTransparencyRound(t.app.deps, silent)));
    expect(rounds.flatMap((r) => r.rewards)).toEqual([0]);
    expect(rounds.filter((r) => r.snapshot?.status === 'taken')).toHaveLength(1);
    const count = async (table: string) => Number(rowsOf<{ n: number }>(await db.execute(sql.raw(`select count(*)::int as n from ${table}`)))[0]!.n);
    expect([await count('proof_rewards'), await count('proof_snapshots')]).toEqual([1, 1]);
    // A later round finds nothing to do.
    expect(await runTransparencyRound(t.app.deps, silent)).toEqual({ rewards: [], snapshot: null });
    const snapshot = (await latestSnapshot(db))!;
    expect(snapshot).toMatchObject({ trigger: 'epoch', epoch: 0, rewardsEpoch: 0 });
    expect(snapshot.rewardsRoot).toBe((await findTree(db, 'rewards:0'))!.rootHash);
  });
});

describe('an epoch’s rewards root', () => {
  it('sums, kind by kind, to what each pool paid according to the ledger; mining stays within the schedule', async () => {
    const tree = (await findTree(db, 'rewards:0'))!;
    const rewards = (await findRewards(db, 0))!;
    const paid = await poolsPaid(db, 0);
    expect(tree.dims).toEqual([...rewardKinds]);
    for (const [d, kind] of rewardKinds.entries()) {
      expect(paid[kind], kind).toBeGreaterThan(0n);
      expect(tree.rootSums[d], kind).toBe(paid[kind]);
      expect(rewards.paid[kind], kind).toBe(paid[kind].toString());
    }
    const epoch = rowsOf<{ emission: string; paid: string }>(await db.execute(sql`select emission::text, paid::text from mining_epochs where epoch = 0`))[0]!;
    expect(rewards.scheduled).toBe(emissionOf(0, await paramsAt(db, t.settings, 0)));
    expect(rewards.scheduled).toBe(BigInt(epoch.emission));
    expect(paid.mining).toBe(BigInt(epoch.paid));
    expect(paid.mining).toBeLessThanOrEqual(rewards.scheduled);
    const info = (await t.app.inject({ method: 'GET', url: '/api/v1/transparency/rewards?epoch=0' })).json().data;
    expect(info).toMatchObject({
      epoch: 0,
      root: tree.rootHash,
      sums: tree.rootSums.map(String),
      scheduled: toDecimalString(rewards.scheduled),
      paid_total: toDecimalString(rewardKinds.reduce((s, k) => s + paid[k], 0n)),
      publication: { state: 'unpublished', chain_id: t.settings.chainId, contract: null },
    });
    expect(info.paid).toEqual(Object.fromEntries(rewardKinds.map((k) => [k, toDecimalString(paid[k])])));
  });

  it('gives every earner a proof that verifies with their income records; the others are told they earned nothing', async () => {
    const tree = (await findTree(db, 'rewards:0'))!;
    const cache = new TreeCache(db, silent);
    const ids = rowsOf<{ id: number }>(await db.execute(sql`select id from users order by id`)).map((r) => Number(r.id));
    let earners = 0;
    let others = 0;
    const total = rewardKinds.map(() => 0n);
    for (const userId of ids) {
      try {
        const answer = await incomeProofOf(t.app.deps, cache, userId, 0);
        const expected = answer.expected.map((s) => BigInt(s));
        expect(verifyProof(answer.proof, { userId, expectedSums: expected, publishedRoot: tree.rootHash }).failure, `user ${userId}`).toBeNull();
        expected.forEach((x, d) => (total[d] = total[d]! + x));
        earners += 1;
      } catch (error) {
        expect(error instanceof AppError && error.reason, `user ${userId}`).toBe('PROOF_NO_INCOME');
        others += 1;
      }
    }
    expect(earners).toBe(tree.users);
    expect(others).toBeGreaterThan(0);
    expect(total).toEqual(tree.rootSums);
  });

  it('answers the proof through the API to a signed-in earner, and says so to a user who earned nothing', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/transparency/proof/income?epoch=0', headers: { authorization: earnerToken } });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.rewards.epoch).toBe(0);
    expect(BigInt(data.expected[0])).toBeGreaterThan(0n);
    expect(verifyProof(data.proof, { userId: earnerId, expectedSums: data.expected.map(BigInt), publishedRoot: data.rewards.root }).failure).toBeNull();
    const idle = await signIn(t.app, newAccount(), rootInviteCode);
    const refused = await t.app.inject({ method: 'GET', url: '/api/v1/transparency/proof/income?epoch=0', headers: { authorization: idle, lang: 'EN' } });
    expect([refused.statusCode, refused.json().reason]).toEqual([404, 'PROOF_NO_INCOME']);
    const unsettled = await t.app.inject({ method: 'GET', url: '/api/v1/transparency/proof/income?epoch=1', headers: { authorization: earnerToken } });
    expect([unsettled.statusCode, unsettled.json().reason]).toEqual([404, 'NOT_FOUND']);
  });
});

describe('the published trees', () => {
  it('rebuild their roots from the downloaded leaves, with no negative node', async () => {
    const snapshot = (await latestSnapshot(db))!;
    for (const scope of ['rewards:0', `snapshot:${snapshot.id}`]) {
      const info = (await t.app.inject({ method: 'GET', url: `/api/v1/transparency/tree?scope=${scope}` })).json().data;
      const res = await t.app.inject({ method: 'GET', url: info.download });
      expect(res.statusCode, scope).toBe(200);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      const bytes = new Uint8Array(res.rawPayload);
      const checked = checkTree(bytes, info.dims.length);
      expect(checked.leafCount).toBe(info.leaf_count);
      expect(checked.negative).toBeNull();
      expect({ hash: toHex(checked.root.hash), sums: checked.root.sums.map(String) }).toEqual(info.root);
    }
  });

  it('show in the public summary: the epoch’s emission against the schedule, the pools, the latest snapshot', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/transparency/summary' });
    expect(res.statusCode).toBe(200);
    const summary = res.json().data;
    const epoch = rowsOf<{ emission: string; paid: string }>(await db.execute(sql`select emission::text, paid::text from mining_epochs where epoch = 0`))[0]!;
    expect(summary.emission).toEqual([
      { epoch: 0, ended_at: endOf(0).toISOString(), emitted: toDecimalString(BigInt(epoch.paid)), scheduled: toDecimalString(BigInt(epoch.emission)) },
    ]);
    expect(summary.pools.map((p: { kind: string }) => p.kind).sort()).toEqual(['mining_pool', 'node_pool', 'referral_pool', 'savings_pool', 'signin_pool']);
    const snapshot = (await latestSnapshot(db))!;
    expect(summary.latest).toMatchObject({ id: snapshot.id, epoch: 0, rewards_root: snapshot.rewardsRoot, reserves: [] });
    expect(summary.cover_history.map((c: { asset: string }) => c.asset)).toEqual(['NADI', 'USDT']);
    expect(summary.supply.total).toBe('1000000000');
    expect(summary.contract).toBeNull();
  });
});
