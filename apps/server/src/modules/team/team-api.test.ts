import { sql } from 'drizzle-orm';
import { weekOf } from '@nadi/economy/team';
import { toDecimalString, units } from '@nadi/money/money';
import type { RankingData, TeamInfo, TeamRewardLine, ZhiListData } from '@nadi/api/team';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.ts';
import { shortAddress } from '../../lib/short-address.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';
import { addPerformance, foldPerformance } from './performance.ts';

let t: TestApp;
beforeAll(async () => {
  // Sessions outlive the epochs and the week the tests move the clock through.
  t = await createTestApp({ SESSION_IDLE_MS: String(7 * 86_400_000) });
});
afterAll(async () => {
  await t.close();
});

interface Member {
  id: number;
  code: string;
  address: string;
  token: string;
}

/** Signs a new wallet up under `inviteCode` (the real sign-in: the tree's counts are kept by it). */
async function member(inviteCode: string): Promise<Member> {
  const account = newAccount();
  const token = await signIn(t.app, account, inviteCode);
  const info = await ok<{ id: number; invite_code: string }>(token, '/api/v1/user/info');
  return { id: info.id, code: info.invite_code, address: account.address.toLowerCase(), token };
}

function get(token: string | null, url: string) {
  return t.app.inject({ method: 'GET', url, headers: token ? { authorization: token, lang: 'EN' } : { lang: 'EN' } });
}

async function ok<T>(token: string, url: string): Promise<T> {
  const res = await get(token, url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as T;
}

let purchases = 0;
/** A purchase of `usdt` by `buyer` now, through the aggregates' own path. */
async function buy(buyer: Member, usdt: string) {
  purchases += 1;
  const change = { userId: buyer.id, kind: 'device' as const, ref: `team-api-test:${buyer.id}:${purchases}`, usdt: units(usdt), at: t.clock.now() };
  await t.database.db.transaction((tx) => addPerformance(tx, change));
  // The team job folds it into the week's amounts within a second; the ranking reads those.
  await foldPerformance(t.database.db);
}

const masked = /^0x[0-9a-f]{4}…[0-9a-f]{4}$/;

describe('team/info', () => {
  it('a new user is V0 with everything at zero, the next level V1, and the numbers in force', async () => {
    const user = await member(rootInviteCode);
    const info = await ok<TeamInfo>(user.token, '/api/v1/team/info');
    expect(info).toMatchObject({
      level: 0,
      rate_bps: 0,
      next_level: { level: 1, team_performance: '1000', active_directs: 1, team_performance_missing: '1000', active_directs_missing: 1, progress_bps: 0 },
      me_performance: '0',
      team_performance: '0',
      zhi_num: 0,
      active_directs: 0,
      team_num: 0,
      share_level1_bps: 1000,
      share_level2_bps: 500,
      device_direct_bps: 1000,
      power_level_bps: 500,
      power_level_min: 3,
    });
    expect(info.rewards).toEqual([
      { kind: 'device_direct_reward', today: '0', total: '0' },
      { kind: 'share_income', today: '0', total: '0' },
      { kind: 'community_power_income', today: '0', total: '0' },
      { kind: 'power_level_income', today: '0', total: '0' },
    ]);
    expect(info.levels).toEqual([
      { level: 1, team_performance: '1000', active_directs: 1, rate_bps: 200 },
      { level: 2, team_performance: '10000', active_directs: 2, rate_bps: 400 },
      { level: 3, team_performance: '50000', active_directs: 3, rate_bps: 600 },
      { level: 4, team_performance: '200000', active_directs: 4, rate_bps: 800 },
      { level: 5, team_performance: '1000000', active_directs: 5, rate_bps: 1000 },
    ]);
    expect(Number.isInteger(info.epoch)).toBe(true);
  });

  it('shows the figures of the tree and its purchases, the level they reach and the progress to the next', async () => {
    const top = await member(rootInviteCode);
    const d1 = await member(top.code);
    const d2 = await member(top.code);
    const d21 = await member(d2.code);
    await buy(d1, '600');
    await buy(d21, '900');
    // Team 1,500 USDT with one active direct (d2 has not bought; its referral's purchase is not its own): V1.
    expect(await ok<TeamInfo>(top.token, '/api/v1/team/info')).toMatchObject({
      level: 1,
      rate_bps: 200,
      next_level: { level: 2, team_performance: '10000', active_directs: 2, team_performance_missing: '8500', active_directs_missing: 1, progress_bps: 1500 },
      me_performance: '0',
      team_performance: '1500',
      zhi_num: 2,
      active_directs: 1,
      team_num: 3,
    });
    await buy(d2, '8500');
    // 10,000 USDT and two active directs: V2; V3 needs 50,000 (20 %) and three directs (2 of 3: 66 %).
    expect(await ok<TeamInfo>(top.token, '/api/v1/team/info')).toMatchObject({
      level: 2,
      rate_bps: 400,
      next_level: { level: 3, team_performance_missing: '40000', active_directs_missing: 1, progress_bps: 2000 },
      team_performance: '10000',
      active_directs: 2,
    });
    expect(await ok<TeamInfo>(d2.token, '/api/v1/team/info')).toMatchObject({
      level: 0,
      me_performance: '8500',
      team_performance: '900',
      zhi_num: 1,
      active_directs: 1,
      team_num: 1,
      next_level: { level: 1, team_performance_missing: '100', active_directs_missing: 0, progress_bps: 9000 },
    });
  });

  it('uses the numbers in force now: an operator change from this epoch on counts, one from a later epoch not yet', async () => {
    const top = await member(rootInviteCode);
    const a = await member(top.code);
    const b = await member(top.code);
    await buy(a, '6000');
    await buy(b, '6000');
    const before = await ok<TeamInfo>(top.token, '/api/v1/team/info');
    expect(before).toMatchObject({ level: 2, rate_bps: 400 });
    const epoch = before.epoch;
    const usdt = (n: string) => units(n).toString();
    await t.database.db.execute(sql`
      insert into economy_params (name, effective_epoch, value)
      values ('teamLevel3Usdt', ${epoch}, ${usdt('12000')}), ('teamLevel3Directs', ${epoch}, '2'), ('teamLevel3RateBps', ${epoch}, '650'),
             ('teamLevel4Usdt', ${epoch + 1}, ${usdt('12000')}), ('teamLevel4Directs', ${epoch + 1}, '2')`);
    try {
      const after = await ok<TeamInfo>(top.token, '/api/v1/team/info');
      expect(after).toMatchObject({
        level: 3,
        rate_bps: 650,
        next_level: {
          level: 4,
          team_performance: '200000',
          active_directs: 4,
          team_performance_missing: '188000',
          active_directs_missing: 2,
          progress_bps: 600,
        },
      });
      expect(after.levels[2]).toEqual({ level: 3, team_performance: '12000', active_directs: 2, rate_bps: 650 });
      expect(after.levels[3]).toEqual({ level: 4, team_performance: '200000', active_directs: 4, rate_bps: 800 });
      // /user/info shows the same live level.
      expect(await ok<{ level: number }>(top.token, '/api/v1/user/info')).toMatchObject({ level: 3 });
    } finally {
      await t.database.db.execute(sql`delete from economy_params where name like 'teamLevel%'`);
    }
  });

  it("rewards per kind: today is the current epoch's purchase-time reward and what the last settled epoch paid", async () => {
    t.clock.advance(2 * t.settings.epochSeconds * 1000);
    const user = await member(rootInviteCode);
    const { epoch } = await ok<TeamInfo>(user.token, '/api/v1/team/info');
    expect(epoch).toBeGreaterThanOrEqual(2);
    const settled = epoch - 1;
    const at = t.clock.now();
    await t.database.db.execute(sql`
      insert into mining_epochs (epoch, starts_at, ends_at, emission, payable, network_power, price, paid, released, reduction, users, settled_at, computed_at)
      values (${settled}, ${at}, ${at}, 0, 0, 0, 0, 0, 0, 0, 0, ${at}, ${at})
      on conflict (epoch) do nothing`);
    const totals = [
      ['device_direct_reward', units('20'), epoch, units('10')],
      ['share_income', units('7.5'), settled, units('2.5')],
      ['community_power_income', units('3'), settled - 1, units('1')],
    ] as const;
    for (const [kind, total, lastEpoch, lastAmount] of totals) {
      await t.database.db.execute(sql`
        insert into team_reward_totals (user_id, kind, total, last_epoch, last_epoch_amount)
        values (${user.id}, ${kind}, ${total.toString()}::numeric, ${lastEpoch}, ${lastAmount.toString()}::numeric)`);
    }
    expect((await ok<TeamInfo>(user.token, '/api/v1/team/info')).rewards).toEqual([
      { kind: 'device_direct_reward', today: '10', total: '20' },
      { kind: 'share_income', today: '2.5', total: '7.5' },
      // Last changed before the last settled epoch: nothing today.
      { kind: 'community_power_income', today: '0', total: '3' },
      { kind: 'power_level_income', today: '0', total: '0' },
    ]);
    // A device direct reward of an earlier epoch is not today's.
    t.clock.advance(t.settings.epochSeconds * 1000);
    expect((await ok<TeamInfo>(user.token, '/api/v1/team/info')).rewards[0]).toEqual({ kind: 'device_direct_reward', today: '0', total: '20' });
  });

  it('needs a session', async () => {
    const res = await get(null, '/api/v1/team/info');
    expect(res.statusCode).toBe(401);
    expect(res.json().reason).toBe('UNAUTHORIZED');
  });
});

describe('user/zhiList', () => {
  // top ─┬─ a ─┬─ a1 ── a11
  //      │     └─ a2
  //      ├─ b ── b1
  //      └─ c
  let top: Member, a: Member, a1: Member, a11: Member, a2: Member, b: Member, b1: Member, c: Member, stranger: Member;
  beforeAll(async () => {
    top = await member(rootInviteCode);
    a = await member(top.code);
    b = await member(top.code);
    c = await member(top.code);
    a1 = await member(a.code);
    a2 = await member(a.code);
    a11 = await member(a1.code);
    b1 = await member(b.code);
    stranger = await member(rootInviteCode);
    await buy(a1, '1000');
    await buy(a11, '5.25');
    await buy(b, '1');
  });

  it("lists the caller's directs newest first, paged, each masked with its figures and level", async () => {
    const first = await ok<ZhiListData>(top.token, '/api/v1/user/zhiList?page=1&page_size=2');
    expect(first.owner).toEqual({ id: top.id, address: shortAddress(top.address), depth: 0 });
    expect(first).toMatchObject({ total: 3, page: 1, page_size: 2 });
    expect(first.list.map((m) => m.id)).toEqual([c.id, b.id]);
    const second = await ok<ZhiListData>(top.token, '/api/v1/user/zhiList?page=2&page_size=2');
    expect(second.list.map((m) => m.id)).toEqual([a.id]);
    expect(second.list[0]).toEqual({
      id: a.id,
      address: shortAddress(a.address),
      joined_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      // 1,005.25 USDT below a and one active direct (a1 bought): V1.
      level: 1,
      me_performance: '0',
      team_performance: '1005.25',
      zhi_num: 2,
      team_num: 3,
    });
    expect(first.list[1]).toMatchObject({ id: b.id, level: 0, me_performance: '1', team_performance: '0', zhi_num: 1, team_num: 1 });
    for (const m of [...first.list, ...second.list]) expect(m.address).toMatch(masked);
    const past = await ok<ZhiListData>(top.token, '/api/v1/user/zhiList?page=3&page_size=2');
    expect(past).toMatchObject({ list: [], total: 3, page: 3 });
  });

  it('drills down into anyone of the own team, with their depth below the caller', async () => {
    const ofA = await ok<ZhiListData>(top.token, `/api/v1/user/zhiList?user_id=${a.id}`);
    expect(ofA.owner).toEqual({ id: a.id, address: shortAddress(a.address), depth: 1 });
    expect(ofA.list.map((m) => m.id)).toEqual([a2.id, a1.id]);
    expect(ofA.list[1]).toMatchObject({ me_performance: '1000', team_performance: '5.25', zhi_num: 1, team_num: 1, level: 0 });
    const ofA1 = await ok<ZhiListData>(top.token, `/api/v1/user/zhiList?user_id=${a1.id}`);
    expect(ofA1).toMatchObject({ owner: { id: a1.id, depth: 2 }, total: 1, list: [{ id: a11.id, me_performance: '5.25' }] });
    expect(await ok<ZhiListData>(top.token, `/api/v1/user/zhiList?user_id=${a11.id}`)).toMatchObject({ owner: { id: a11.id, depth: 3 }, total: 0, list: [] });
    // Oneself by id is the same as no id; a member looks into their own team likewise.
    expect(await ok<ZhiListData>(top.token, `/api/v1/user/zhiList?user_id=${top.id}`)).toEqual(await ok<ZhiListData>(top.token, '/api/v1/user/zhiList'));
    expect(await ok<ZhiListData>(a.token, `/api/v1/user/zhiList?user_id=${a11.id}`)).toMatchObject({ owner: { id: a11.id, depth: 2 } });
  });

  it('answers NOT_FOUND for anyone outside the own team, the same as for an id that does not exist', async () => {
    const outside = [
      [a, b.id], // a sibling
      [a, top.id], // the referrer
      [a1, a2.id], // the referrer's other direct
      [a, b1.id], // a cousin
      [top, stranger.id], // another team
      [stranger, a.id],
      [a, 2 ** 31 - 1], // no one
    ] as const;
    const answers = new Set<string>();
    for (const [viewer, id] of outside) {
      const res = await get(viewer.token, `/api/v1/user/zhiList?user_id=${id}`);
      expect(res.statusCode, `${viewer.id} → ${id}`).toBe(404);
      expect(res.json()).toMatchObject({ reason: 'NOT_FOUND', data: null });
      answers.add(res.body);
    }
    expect(answers.size).toBe(1);
  });

  it('refuses a bad query with BAD_REQUEST and needs a session', async () => {
    for (const query of ['user_id=abc', 'user_id=0', 'user_id=-1', 'user_id=1e3', 'page=0', 'page_size=51', 'page_size=x']) {
      const res = await get(top.token, `/api/v1/user/zhiList?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().reason).toBe('BAD_REQUEST');
    }
    expect((await get(null, '/api/v1/user/zhiList')).statusCode).toBe(401);
  });

  it("never shows a full address of anyone else's", async () => {
    const res = await get(top.token, '/api/v1/user/zhiList?page_size=50');
    for (const m of [a, b, c, top]) expect(res.body).not.toContain(m.address.slice(2, 20));
  });
});

describe('user/ranking', () => {
  // The ranking is everyone's: these tests share the week they run in, so each compares the answer with
  // a reference order of all that week's rows (sorted here, not by SQL). The first moves into a week of
  // its own; sessions live at most 7 days, so the clock moves only that far.
  const week = () => weekOf(t.clock.now());

  /** The reference: every row of this week above zero, highest first, ties by the lower user id. */
  async function referenceRanking(): Promise<{ id: number; address: string; amount: bigint }[]> {
    const rows = rowsOf<{ id: number; address: string; amount: string }>(
      await t.database.db.execute(sql`
        select w.user_id as id, u.address, w.amount::text as amount
          from team_week_performance w join users u on u.id = w.user_id
         where w.week = ${week()} and w.amount > 0`),
    );
    return rows
      .map((r) => ({ id: Number(r.id), address: r.address, amount: BigInt(r.amount) }))
      .sort((x, y) => (x.amount === y.amount ? x.id - y.id : x.amount > y.amount ? -1 : 1));
  }
  const rankIn = (reference: { id: number }[], id: number) => reference.findIndex((u) => u.id === id) + 1;

  /** Users the ranking reads (no place in the tree needed), `count` of them, in id order. */
  async function rankedUsers(count: number): Promise<{ id: number; address: string }[]> {
    const rows = rowsOf<{ id: number; address: string }>(
      await t.database.db.execute(sql`
        insert into users (address, invite_code, name)
        select '0x' || substr(md5(random()::text || g), 1, 32) || lpad(to_hex(g), 8, '0'), 'RK' || upper(substr(md5(random()::text || g), 1, 12)), 'ranked'
          from generate_series(1, ${count}::int) g
        returning id, address`),
    );
    return rows.map((r) => ({ id: Number(r.id), address: r.address })).sort((x, y) => x.id - y.id);
  }

  async function addWeek(userId: number, amount: bigint, at = week()) {
    await t.database.db.execute(sql`
      insert into team_week_performance (week, user_id, amount, updated_at) values (${at}, ${userId}, ${amount.toString()}::numeric, now())`);
  }

  it('a new week starts on Monday 00:00 UTC, empty', async () => {
    const user = await member(rootInviteCode);
    await addWeek(user.id, units('10'));
    const now = t.clock.now();
    const thisWeek = await ok<RankingData>(user.token, '/api/v1/user/ranking');
    expect(thisWeek.week).toBe(week());
    expect(thisWeek.me).toEqual({ rank: rankIn(await referenceRanking(), user.id), amount: '10' });
    const [startsAt, endsAt] = [new Date(thisWeek.starts_at), new Date(thisWeek.ends_at)];
    expect(startsAt.getUTCDay()).toBe(1);
    expect(thisWeek.starts_at).toMatch(/T00:00:00\.000Z$/);
    expect(endsAt.getTime() - startsAt.getTime()).toBe(7 * 86_400_000);
    expect(startsAt.getTime() <= now.getTime() && now.getTime() < endsAt.getTime()).toBe(true);
    // One millisecond before the end it is still this week; at the end the next begins, with nothing in it.
    t.clock.advance(endsAt.getTime() - now.getTime() - 1);
    expect((await ok<RankingData>(user.token, '/api/v1/user/ranking')).week).toBe(thisWeek.week);
    t.clock.advance(1);
    expect(await ok<RankingData>(user.token, '/api/v1/user/ranking')).toEqual({
      week: thisWeek.week + 1,
      starts_at: thisWeek.ends_at,
      ends_at: new Date(endsAt.getTime() + 7 * 86_400_000).toISOString(),
      list: [],
      me: { rank: null, amount: '0' },
    });
  });

  it("a purchase adds to this week's figure of everyone above the buyer, not the buyer's own", async () => {
    const top = await member(rootInviteCode);
    const middle = await member(top.code);
    const buyer = await member(middle.code);
    await buy(buyer, '300');
    const ranking = await ok<RankingData>(top.token, '/api/v1/user/ranking');
    const reference = await referenceRanking();
    expect(ranking.list.map((e) => [e.rank, e.address, e.amount])).toEqual(
      reference.slice(0, 100).map((u, i) => [i + 1, shortAddress(u.address), toDecimalString(u.amount)]),
    );
    // Top and middle gained the same 300: the one who joined first ranks first, right before.
    expect(ranking.me).toEqual({ rank: rankIn(reference, top.id), amount: '300' });
    expect((await ok<RankingData>(middle.token, '/api/v1/user/ranking')).me).toEqual({ rank: rankIn(reference, top.id) + 1, amount: '300' });
    expect((await ok<RankingData>(buyer.token, '/api/v1/user/ranking')).me).toEqual({ rank: null, amount: '0' });
  });

  it('ranks by the amount added, ties by who joined first, the same on every read, with the own rank outside the top 100', async () => {
    const early = await member(rootInviteCode);
    const users = await rankedUsers(120);
    const late = await member(rootInviteCode);
    // Ties in threes: 130, 130, 130, 129, …, 91; `early` (a lower id) and `late` (a higher id) tie with the three at 96.
    const amountOf = (i: number) => units(String(130 - Math.floor(i / 3)));
    for (const [i, u] of users.entries()) await addWeek(u.id, amountOf(i));
    await addWeek(early.id, units('96'));
    await addWeek(late.id, units('96'));
    // The first one is V1 by its figures (team performance 1,000 USDT, one active direct).
    await t.database.db.execute(sql`
      insert into user_performance (user_id, team_performance, active_directs, updated_at) values (${users[0]!.id}, ${units('1000').toString()}::numeric, 1, now())`);

    const reference = await referenceRanking();
    const ranking = await ok<RankingData>(late.token, '/api/v1/user/ranking');
    expect(ranking.list).toHaveLength(100);
    expect(ranking.list.map((e) => [e.rank, e.address, e.amount])).toEqual(
      reference.slice(0, 100).map((u, i) => [i + 1, shortAddress(u.address), toDecimalString(u.amount)]),
    );
    expect(ranking.list[rankIn(reference, users[0]!.id) - 1]).toMatchObject({ address: shortAddress(users[0]!.address), amount: '130', level: 1 });
    expect(ranking.list.filter((e) => e.level !== 0)).toHaveLength(1);
    const [earlyRank, lateRank] = [rankIn(reference, early.id), rankIn(reference, late.id)];
    expect(lateRank).toBeGreaterThan(100);
    expect(lateRank - earlyRank).toBe(4);
    expect(ranking.me).toEqual({ rank: lateRank, amount: '96' });
    expect((await ok<RankingData>(early.token, '/api/v1/user/ranking')).me).toEqual({ rank: earlyRank, amount: '96' });
    // The same order on every read.
    for (let read = 0; read < 3; read += 1) expect((await ok<RankingData>(early.token, '/api/v1/user/ranking')).list).toEqual(ranking.list);
  });

  it('a member in the top 100 finds their rank there; with nothing (or less than nothing) added this week the rank is null', async () => {
    const [u] = await rankedUsers(1);
    const first = await member(rootInviteCode);
    const idle = await member(rootInviteCode);
    await addWeek(u!.id, units('5000'));
    await addWeek(first.id, units('5000'));
    const refunded = await member(rootInviteCode);
    await addWeek(idle.id, units('50'), week() - 1);
    await addWeek(idle.id, 0n);
    await addWeek(refunded.id, -units('20'));
    const reference = await referenceRanking();
    const ranking = await ok<RankingData>(first.token, '/api/v1/user/ranking');
    const rank = rankIn(reference, first.id);
    expect(rank).toBeLessThanOrEqual(100);
    // Equal amounts: the one who joined first (the lower id) ranks first.
    expect(ranking.list.slice(rank - 2, rank)).toEqual([
      { rank: rank - 1, address: shortAddress(u!.address), amount: '5000', level: 0 },
      { rank, address: shortAddress(first.address), amount: '5000', level: 0 },
    ]);
    expect(ranking.me).toEqual({ rank, amount: '5000' });
    // Last week's 50 and a zero row this week: not ranked.
    expect((await ok<RankingData>(idle.token, '/api/v1/user/ranking')).me).toEqual({ rank: null, amount: '0' });
    // A week where refunds outweigh purchases shows as it is, unranked.
    expect((await ok<RankingData>(refunded.token, '/api/v1/user/ranking')).me).toEqual({ rank: null, amount: '-20' });
    expect(ranking.list.map((e) => e.address)).not.toContain(shortAddress(refunded.address));
  });
});

describe('team/rewards', () => {
  let user: Member, direct: Member, second: Member, other: Member;
  const lineIds: Record<string, number> = {};
  beforeAll(async () => {
    user = await member(rootInviteCode);
    direct = await member(user.code);
    second = await member(direct.code);
    other = await member(rootInviteCode);
    const signed = (text: string) => (text.startsWith('-') ? -units(text.slice(1)) : units(text));
    const line = async (
      name: string,
      l: {
        epoch: number;
        userId?: number;
        kind: string;
        source: number;
        depth: number;
        sourceAmount: string;
        rate: number;
        lower?: bigint;
        wanted: string;
        amount: string;
        ref?: string;
      },
    ) => {
      const row = rowsOf<{ id: string }>(
        await t.database.db.execute(sql`
          insert into team_rewards (epoch, user_id, kind, source_user_id, source_depth, source_amount, rate_bps, lower_numerator, wanted, amount, ref)
          values (${l.epoch}, ${l.userId ?? user.id}, ${l.kind}, ${l.source}, ${l.depth}, ${units(l.sourceAmount).toString()}::numeric, ${l.rate},
                  ${(l.lower ?? 0n).toString()}::numeric, ${signed(l.wanted).toString()}::numeric, ${signed(l.amount).toString()}::numeric, ${l.ref ?? null})
          returning id::text as id`),
      )[0]!;
      lineIds[name] = Number(row.id);
    };
    const ref = `team-api-test:order:${user.id}`;
    await line('device', {
      epoch: 3,
      kind: 'device_direct_reward',
      source: direct.id,
      depth: 1,
      sourceAmount: '100',
      rate: 1000,
      wanted: '10',
      amount: '10',
      ref,
    });
    await line('share1', { epoch: 4, kind: 'share_income', source: direct.id, depth: 1, sourceAmount: '12.5', rate: 1000, wanted: '1.25', amount: '1.25' });
    await line('share2', { epoch: 4, kind: 'share_income', source: second.id, depth: 2, sourceAmount: '40', rate: 500, wanted: '2', amount: '1.5' });
    // 6 % of the branch's 100 NADI, of which 4 % (and a fraction of a base unit) is earned below.
    const lower = 400n * units('100') + 123_456n;
    await line('community', {
      epoch: 4,
      kind: 'community_power_income',
      source: direct.id,
      depth: 1,
      sourceAmount: '100',
      rate: 600,
      lower,
      wanted: '2',
      amount: '2',
    });
    await line('power', { epoch: 5, kind: 'power_level_income', source: user.id, depth: 0, sourceAmount: '30', rate: 500, wanted: '1.5', amount: '1.5' });
    await line('clawback', {
      epoch: 5,
      kind: 'device_direct_reward',
      source: direct.id,
      depth: 1,
      sourceAmount: '100',
      rate: 1000,
      wanted: '-10',
      amount: '-10',
      ref: `${ref}:refund`,
    });
    await line('others', {
      epoch: 6,
      userId: other.id,
      kind: 'share_income',
      source: direct.id,
      depth: 1,
      sourceAmount: '1',
      rate: 1000,
      wanted: '0.1',
      amount: '0.1',
    });
  });

  it("lists only the caller's lines, newest epoch first, paged, with the masked source and every input", async () => {
    const all = await ok<{ list: TeamRewardLine[]; total: number }>(user.token, '/api/v1/team/rewards?page_size=50');
    expect(all.total).toBe(6);
    expect(all.list.map((l) => l.id)).toEqual([lineIds.clawback, lineIds.power, lineIds.community, lineIds.share2, lineIds.share1, lineIds.device]);
    const byId = new Map(all.list.map((l) => [l.id, l]));
    expect(byId.get(lineIds.community!)).toEqual({
      id: lineIds.community,
      epoch: 4,
      kind: 'community_power_income',
      source: shortAddress(direct.address),
      source_depth: 1,
      source_amount: '100',
      rate_bps: 600,
      lower_levels: '4.000000000000000012',
      wanted: '2',
      amount: '2',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
    expect(byId.get(lineIds.share2!)).toMatchObject({
      source: shortAddress(second.address),
      source_depth: 2,
      source_amount: '40',
      rate_bps: 500,
      wanted: '2',
      amount: '1.5',
      lower_levels: '0',
    });
    expect(byId.get(lineIds.power!)).toMatchObject({ source: shortAddress(user.address), source_depth: 0 });
    expect(byId.get(lineIds.clawback!)).toMatchObject({ kind: 'device_direct_reward', amount: '-10', wanted: '-10' });
    for (const l of all.list) expect(l.source).toMatch(masked);

    const page2 = await ok<{ list: TeamRewardLine[]; total: number; page: number; page_size: number }>(user.token, '/api/v1/team/rewards?page=2&page_size=4');
    expect(page2).toMatchObject({ total: 6, page: 2, page_size: 4 });
    expect(page2.list.map((l) => l.id)).toEqual([lineIds.share1, lineIds.device]);
  });

  it('filters by kind', async () => {
    const share = await ok<{ list: TeamRewardLine[]; total: number }>(user.token, '/api/v1/team/rewards?kind=share_income');
    expect(share.total).toBe(2);
    expect(share.list.map((l) => l.id)).toEqual([lineIds.share2, lineIds.share1]);
    const device = await ok<{ list: TeamRewardLine[]; total: number }>(user.token, '/api/v1/team/rewards?kind=device_direct_reward&page_size=1');
    expect(device).toMatchObject({ total: 2, list: [{ id: lineIds.clawback }] });
    expect(await ok<{ total: number }>(direct.token, '/api/v1/team/rewards')).toMatchObject({ total: 0, list: [] });
  });

  it('refuses an unknown kind or a bad page with BAD_REQUEST', async () => {
    for (const query of ['kind=bonus', 'page=-1', 'page_size=0']) {
      const res = await get(user.token, `/api/v1/team/rewards?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().reason).toBe('BAD_REQUEST');
    }
  });
});
