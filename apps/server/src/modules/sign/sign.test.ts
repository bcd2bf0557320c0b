// Daily sign-in (docs/team.md "Daily sign-in"): one paid sign-in per user and day whatever the number
// of parallel requests or server instances, the cycle day derived from history (day boundary, a
// full cycle, a missed day), the streak and calendar, a short pool paying what it holds, the history
// pages, and an operator's award change applying from its epoch on. The clock is the TestClock.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { openDatabase, type Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import type { AppEvent } from '../../lib/event-bus.ts';
import { LocalBus } from '../../lib/event-bus.ts';
import { createTestApp, rootInviteCode, testSettings, type TestApp } from '../../test/harness.ts';
import { balanceOf, tokens } from '../../test/money.ts';
import { setEconomyParamApproved } from '../../test/operator.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';
import { auditLedger, readAvailable, runFlow, systemAccount, transfer } from '../ledger/index.ts';

const env = { SESSION_IDLE_MS: String(30 * 86_400_000) };
const operatorAccount = newAccount();
let t: TestApp;
let epochMs: number;

beforeAll(async () => {
  t = await createTestApp({ ...env, OPERATOR_ADDRESSES: operatorAccount.address });
  epochMs = t.settings.epochSeconds * 1000;
});
afterAll(async () => {
  await t.close();
});

interface User {
  id: number;
  token: string;
}

async function newUser(): Promise<User> {
  const token = await signIn(t.app, newAccount(), rootInviteCode);
  const info = await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: token } });
  return { id: info.json().data.id as number, token };
}

const operate = (u: User, app: FastifyInstance = t.app, lang = 'EN') =>
  app.inject({ method: 'POST', url: '/api/v1/sign/operate', headers: { authorization: u.token, lang } });

async function signOk(u: User) {
  const res = await operate(u);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { day: number; cycle_day: number; award: string; created_at: string; streak: number };
}

async function config(u: User) {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/sign/config', headers: { authorization: u.token } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    day: number;
    day_ends_at: string;
    cycle: { cycle_day: number; award: string; status: string }[];
    signed_today: boolean;
    cycle_day: number;
    award: string;
    streak: number;
    total_awarded: string;
  };
}

const statuses = async (u: User) => (await config(u)).cycle.map((c) => c.status);
const fund = async (u: User) => (await balanceOf(t.database.db, u.id, 'fund', 'NADI')).available;
const pool = () => readAvailable(t.database.db, systemAccount('signin_pool', 'NADI'));
const nextDay = (days = 1) => t.clock.advance(days * epochMs);

async function flowsOf(u: User): Promise<{ key: string; amount: string }[]> {
  return rowsOf<{ key: string; amount: string }>(
    await t.database.db.execute(sql`
      select f.idempotency_key as key, t.amount::text as amount
        from ledger_flows f join ledger_transfers t on t.flow_id = f.id
       where f.idempotency_key like ${`sign_in:${u.id}:%`} and t.type = 'sign_in_award'
       order by f.id`),
  );
}

async function rowsOfUser(u: User) {
  return rowsOf<{ day: number; cycle_day: number; award: string; flow_id: string | null }>(
    await t.database.db.execute(sql`select day, cycle_day, award::text as award, flow_id from sign_ins where user_id = ${u.id} order by day`),
  );
}

/** Moves NADI between the sign-in pool and the treasury, as an operator adjustment would. */
async function movePool(direction: 'out' | 'in', amount: bigint) {
  const [from, to] = direction === 'out' ? (['signin_pool', 'treasury'] as const) : (['treasury', 'signin_pool'] as const);
  await runFlow(t.database.db, {
    idempotencyKey: `test-pool:${randomUUID()}`,
    userId: null,
    type: 'data_adjustment',
    params: { direction, amount: amount.toString() },
    legs: [transfer('data_adjustment', systemAccount(from, 'NADI'), systemAccount(to, 'NADI'), amount)],
    result: () => null,
  });
}

/** Fires `count` sign-ins of one user at once, spread over the given apps; answers the outcomes. */
async function race(u: User, apps: FastifyInstance[], count = 20) {
  const answers = await Promise.all(Array.from({ length: count }, (_, i) => operate(u, apps[i % apps.length])));
  const ok = answers.filter((r) => r.statusCode === 200);
  const refused = answers.filter((r) => r.statusCode === 409 && r.json().reason === 'SIGN_IN_ALREADY');
  return { ok, refused, others: answers.filter((r) => !ok.includes(r) && !refused.includes(r)).map((r) => `${r.statusCode} ${r.body}`) };
}

describe('one sign-in per user and day', () => {
  it('pays exactly one of 20 parallel sign-ins, and tells the account socket once', async () => {
    const u = await newUser();
    const events: AppEvent[] = [];
    const stop = t.app.deps.events.subscribe((e) => {
      if (e.type === 'balance' && e.userIds.includes(u.id)) events.push(e);
    });
    const poolBefore = await pool();
    const { ok, refused, others } = await race(u, [t.app]);
    stop();
    expect(others).toEqual([]);
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(19);
    expect(ok[0]?.json().data).toMatchObject({ cycle_day: 1, award: '1', streak: 1 });
    expect(await fund(u)).toBe(tokens(1));
    expect(await pool()).toBe(poolBefore - tokens(1));
    const flows = await flowsOf(u);
    expect(flows).toEqual([{ key: `sign_in:${u.id}:${ok[0]?.json().data.day}`, amount: tokens(1).toString() }]);
    expect(await rowsOfUser(u)).toHaveLength(1);
    expect(events).toHaveLength(1);
    // The refusal is translated, and a later try changes nothing either.
    const again = await operate(u, t.app, 'TW');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 409, reason: 'SIGN_IN_ALREADY', msg: '今日已簽到', data: null });
    expect(await fund(u)).toBe(tokens(1));
    expect(await flowsOf(u)).toHaveLength(1);
  });

  it('pays exactly one of 20 parallel sign-ins spread over two app instances on one database', async () => {
    // A second server on the same database: on PostgreSQL with a connection pool of its own, on
    // PGlite (one database per process) sharing the handle.
    const url = (t.database as Database & { url?: string | null }).url ?? null;
    const second = url ? await openDatabase({ url, dataDir: null, poolSizeMax: 20 }) : null;
    const b = await buildApp({
      settings: testSettings(env),
      db: second?.db ?? t.database.db,
      dbKind: t.database.kind,
      chain: t.app.deps.chain,
      now: t.clock.now,
      events: new LocalBus(),
    });
    try {
      await b.ready();
      const u = await newUser();
      const { ok, refused, others } = await race(u, [t.app, b]);
      expect(others).toEqual([]);
      expect(ok).toHaveLength(1);
      expect(refused).toHaveLength(19);
      expect(await fund(u)).toBe(tokens(1));
      expect(await flowsOf(u)).toHaveLength(1);
      expect(await rowsOfUser(u)).toHaveLength(1);
    } finally {
      await b.close();
      await second?.close();
    }
  });

  it('refuses a caller without a session on every route, writing nothing', async () => {
    const before = rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from sign_ins`))[0]?.n;
    for (const [method, url] of [
      ['POST', '/api/v1/sign/operate'],
      ['GET', '/api/v1/sign/config'],
      ['GET', '/api/v1/sign/list'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: { lang: 'EN' } });
      expect(res.statusCode, url).toBe(401);
      expect(res.json().reason).toBe('UNAUTHORIZED');
    }
    expect(rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from sign_ins`))[0]?.n).toBe(before);
  });
});

describe('the cycle, the streak and the calendar', () => {
  it('shows a new user today as cycle day 1 with no streak, and the day as the epoch', async () => {
    const u = await newUser();
    const c = await config(u);
    const epochs = (await t.app.inject({ method: 'GET', url: '/api/v1/mining/overview', headers: { authorization: u.token } })).json().data.epoch;
    expect(c).toMatchObject({ day: epochs.epoch, day_ends_at: epochs.ends_at, signed_today: false, cycle_day: 1, award: '1', streak: 0, total_awarded: '0' });
    expect(c.cycle).toEqual(['1', '1', '2', '2', '3', '3', '8'].map((award, i) => ({ cycle_day: i + 1, award, status: i === 0 ? 'today' : 'upcoming' })));
  });

  it('moves to cycle day 2 across a day boundary, paying 1 then 1', async () => {
    const u = await newUser();
    const first = await signOk(u);
    expect(first).toMatchObject({ cycle_day: 1, award: '1', streak: 1 });
    expect(first.created_at).toBe(t.clock.now().toISOString());
    expect(await config(u)).toMatchObject({ signed_today: true, cycle_day: 1, award: '1', streak: 1, total_awarded: '1' });
    expect(await statuses(u)).toEqual(['signed', 'upcoming', 'upcoming', 'upcoming', 'upcoming', 'upcoming', 'upcoming']);

    nextDay();
    // Not signed yet today: yesterday's streak still counts, today is cycle day 2.
    expect(await config(u)).toMatchObject({ day: first.day + 1, signed_today: false, cycle_day: 2, award: '1', streak: 1, total_awarded: '1' });
    expect(await statuses(u)).toEqual(['signed', 'today', 'upcoming', 'upcoming', 'upcoming', 'upcoming', 'upcoming']);
    expect(await signOk(u)).toMatchObject({ day: first.day + 1, cycle_day: 2, award: '1', streak: 2 });
    expect(await statuses(u)).toEqual(['signed', 'signed', 'upcoming', 'upcoming', 'upcoming', 'upcoming', 'upcoming']);
    expect(await fund(u)).toBe(tokens(2));
    expect((await flowsOf(u)).map((f) => f.amount)).toEqual([tokens(1).toString(), tokens(1).toString()]);
  });

  it('pays a full cycle of 1, 1, 2, 2, 3, 3, 8 and starts again at cycle day 1 on day 8, the streak going on', async () => {
    const u = await newUser();
    const answers = [];
    for (let i = 0; i < 7; i += 1) {
      if (i > 0) nextDay();
      answers.push(await signOk(u));
    }
    expect(answers.map((a) => [a.cycle_day, a.award, a.streak])).toEqual([
      [1, '1', 1],
      [2, '1', 2],
      [3, '2', 3],
      [4, '2', 4],
      [5, '3', 5],
      [6, '3', 6],
      [7, '8', 7],
    ]);
    expect(await statuses(u)).toEqual(Array(7).fill('signed'));
    expect(await config(u)).toMatchObject({ cycle_day: 7, award: '8', streak: 7, total_awarded: '20' });

    nextDay();
    expect(await config(u)).toMatchObject({ signed_today: false, cycle_day: 1, award: '1', streak: 7 });
    expect(await statuses(u)).toEqual(['today', 'upcoming', 'upcoming', 'upcoming', 'upcoming', 'upcoming', 'upcoming']);
    expect(await signOk(u)).toMatchObject({ cycle_day: 1, award: '1', streak: 8 });
    expect(await fund(u)).toBe(tokens(21));
    expect(await config(u)).toMatchObject({ streak: 8, total_awarded: '21' });

    // The history, newest first, in pages.
    const page = async (query: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/sign/list${query}`, headers: { authorization: u.token } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as {
        list: { day: number; cycle_day: number; award: string; created_at: string }[];
        total: number;
        page: number;
        page_size: number;
      };
    };
    const day8 = answers[0]!.day + 7;
    const first = await page('?page=1&page_size=3');
    expect(first).toMatchObject({ total: 8, page: 1, page_size: 3 });
    expect(first.list.map((r) => [r.day, r.cycle_day, r.award])).toEqual([
      [day8, 1, '1'],
      [day8 - 1, 7, '8'],
      [day8 - 2, 6, '3'],
    ]);
    expect((await page('?page=3&page_size=3')).list.map((r) => [r.day, r.cycle_day, r.award])).toEqual([
      [day8 - 6, 2, '1'],
      [day8 - 7, 1, '1'],
    ]);
    expect((await page('?page=4&page_size=3')).list).toEqual([]);
    expect((await page('')).list).toHaveLength(8);
    expect((await page('')).list[7]).toEqual({ day: answers[0]!.day, cycle_day: 1, award: '1', created_at: answers[0]!.created_at });
    for (const bad of ['?page_size=51', '?page=0', '?page_size=abc']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/sign/list${bad}`, headers: { authorization: u.token } });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().reason).toBe('BAD_REQUEST');
    }
  });

  it('restarts the cycle at day 1 after a missed day, the streak back to 0 then 1', async () => {
    const u = await newUser();
    await signOk(u);
    nextDay();
    await signOk(u);
    nextDay();
    expect(await signOk(u)).toMatchObject({ cycle_day: 3, award: '2', streak: 3 });
    expect(await statuses(u)).toEqual(['signed', 'signed', 'signed', 'upcoming', 'upcoming', 'upcoming', 'upcoming']);

    nextDay(2);
    expect(await config(u)).toMatchObject({ signed_today: false, cycle_day: 1, award: '1', streak: 0, total_awarded: '4' });
    expect(await statuses(u)).toEqual(['today', 'upcoming', 'upcoming', 'upcoming', 'upcoming', 'upcoming', 'upcoming']);
    expect(await signOk(u)).toMatchObject({ cycle_day: 1, award: '1', streak: 1 });
    nextDay();
    expect(await signOk(u)).toMatchObject({ cycle_day: 2, award: '1', streak: 2 });
    expect(await fund(u)).toBe(tokens(6));
    expect((await rowsOfUser(u)).map((r) => r.cycle_day)).toEqual([1, 2, 3, 1, 2]);
  });
});

describe('the sign-in pool', () => {
  it('pays what is left when the pool is short, records it, pays nothing from an empty pool, and never goes below zero', async () => {
    const held = await pool();
    const half = tokens(1) / 2n;
    await movePool('out', held - half);
    try {
      const a = await newUser();
      expect(await signOk(a)).toMatchObject({ cycle_day: 1, award: '0.5', streak: 1 });
      expect(await fund(a)).toBe(half);
      expect(await pool()).toBe(0n);
      expect(await flowsOf(a)).toEqual([{ key: expect.stringMatching(/^sign_in:/), amount: half.toString() }]);
      expect((await rowsOfUser(a)).map((r) => [r.award, r.flow_id === null])).toEqual([[half.toString(), false]]);
      expect(await config(a)).toMatchObject({ signed_today: true, award: '0.5', total_awarded: '0.5' });

      const b = await newUser();
      expect(await signOk(b)).toMatchObject({ cycle_day: 1, award: '0', streak: 1 });
      expect(await fund(b)).toBe(0n);
      expect(await pool()).toBe(0n);
      expect(await flowsOf(b)).toEqual([]);
      expect(await rowsOfUser(b)).toMatchObject([{ cycle_day: 1, award: '0', flow_id: null }]);
      expect((await operate(b)).json().reason).toBe('SIGN_IN_ALREADY');
      expect((await auditLedger(t.database.db)).problems).toEqual([]);
    } finally {
      await movePool('in', held - half);
    }
  });

  it('shares the last of the pool among parallel sign-ins of different users without overdrawing it', async () => {
    const users = await Promise.all(Array.from({ length: 4 }, () => newUser()));
    const held = await pool();
    const left = tokens(5) / 2n;
    await movePool('out', held - left);
    try {
      const answers = await Promise.all(users.map((u) => operate(u)));
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
      // Each wants 1 NADI: two are paid in full, one gets the half left, one gets nothing.
      const awards = answers.map((r) => r.json().data.award as string).sort();
      expect(awards).toEqual(['0', '0.5', '1', '1']);
      expect(await pool()).toBe(0n);
      const paid = await Promise.all(users.map((u) => fund(u)));
      expect(paid.reduce((a, b) => a + b, 0n)).toBe(left);
      expect((await auditLedger(t.database.db)).problems).toEqual([]);
    } finally {
      await movePool('in', held - left);
    }
  });
});

describe('operator changes', () => {
  it('applies a change of the day-1 award from its epoch on, not before', async () => {
    const operator = await signIn(t.app, operatorAccount, rootInviteCode);
    const today = (await config(await newUser())).day;
    const set = await setEconomyParamApproved(t.app, operator, { name: 'signInDay1Nadi', value: tokens(5).toString(), effective_epoch: today + 2 });
    expect(set.statusCode, set.body).toBe(200);

    const early = await newUser();
    expect((await config(early)).cycle[0]).toEqual({ cycle_day: 1, award: '1', status: 'today' });
    expect(await signOk(early)).toMatchObject({ day: today, cycle_day: 1, award: '1' });
    nextDay();
    const next = await newUser();
    expect(await signOk(next)).toMatchObject({ day: today + 1, cycle_day: 1, award: '1' });
    nextDay();
    const later = await newUser();
    expect(await config(later)).toMatchObject({ day: today + 2, cycle_day: 1, award: '5' });
    expect((await config(later)).cycle.map((c) => c.award)).toEqual(['5', '1', '2', '2', '3', '3', '8']);
    expect(await signOk(later)).toMatchObject({ cycle_day: 1, award: '5' });
    // The one who signed on the first day missed a day: cycle day 1 again, at the new award.
    expect(await signOk(early)).toMatchObject({ cycle_day: 1, award: '5' });
    // The one who signed yesterday goes on to cycle day 2, unchanged.
    expect(await signOk(next)).toMatchObject({ cycle_day: 2, award: '1', streak: 2 });
    expect(await fund(early)).toBe(tokens(6));
    expect(await fund(later)).toBe(tokens(5));
  });
});
