// The notices console (docs/operator.md, "Notices"): drafts, schedules, publishing now, withdrawing,
// each with its audit line; a scheduled notice is seen by phones from its time on and pushed on /ws
// by the notice job; a withdrawn one leaves the phone list; roles are checked on every route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { AccountSocketPush } from '@nadi/api/trade-socket';
import { rowsOf } from '../../db/rows.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';
import { runNoticeRound } from './job.ts';

const adminAccount = newAccount();
const viewerAccount = newAccount();
const userAccount = newAccount();
let t: TestApp;
let base = '';
let admin: string;
let viewer: string;
let user: string;

async function userIdOf(address: string): Promise<number> {
  const rows = rowsOf<{ id: number }>(await t.database.db.execute(sql`select id from users where lower(address) = ${address.toLowerCase()}`));
  return Number(rows[0]?.id);
}

beforeAll(async () => {
  t = await createTestApp({ OPERATOR_ADDRESSES: adminAccount.address });
  admin = await signIn(t.app, adminAccount, rootInviteCode);
  viewer = await signIn(t.app, viewerAccount, rootInviteCode);
  user = await signIn(t.app, userAccount, rootInviteCode);
  await t.database.db.execute(sql`insert into operator_roles (user_id, role, granted_at) values (${await userIdOf(viewerAccount.address)}, 'viewer', now())`);
  base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('http://', 'ws://');
});
afterAll(async () => {
  await t.close();
});

const post = (url: string, token: string, payload: object, lang = 'EN') =>
  t.app.inject({ method: 'POST', url, payload, headers: { authorization: token, lang } });
const get = (url: string, token: string, lang = 'EN') => t.app.inject({ method: 'GET', url, headers: { authorization: token, lang } });
const phoneIds = async () => ((await get('/api/v1/notice/list?page_size=50', user)).json().data.list as { id: number }[]).map((n) => n.id);
const consoleNotice = async (id: number) =>
  ((await get('/api/v1/operator/notices?page_size=50', viewer)).json().data.list as { id: number; status: string; pushed_at: string | null }[]).find(
    (n) => n.id === id,
  );
async function auditOf(id: number) {
  return rowsOf<{ action: string; actor_id: number; reason: string | null; before: unknown; after: { status: string } | null }>(
    await t.database.db.execute(
      sql`select action, actor_id, reason, before, after from audit_log where target_type = 'notice' and target_id = ${String(id)} order by id`,
    ),
  );
}

/** Opens /ws for a token; `pushes` collects its notice pushes. */
async function openSocket(token: string): Promise<{ ws: WebSocket; pushes: AccountSocketPush[]; next: () => Promise<AccountSocketPush> }> {
  const ws = new WebSocket(`${base}/ws?token=${token}`);
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve);
    ws.addEventListener('error', () => reject(new Error('could not open /ws')));
  });
  const pushes: AccountSocketPush[] = [];
  let waiter: ((p: AccountSocketPush) => void) | null = null;
  ws.addEventListener('message', (e) => {
    const text = String(e.data);
    if (!text.startsWith('{')) return;
    const message = JSON.parse(text) as AccountSocketPush;
    if (message.type !== 'notice') return;
    pushes.push(message);
    waiter?.(message);
    waiter = null;
  });
  const next = () =>
    new Promise<AccountSocketPush>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no notice push within 5 s')), 5_000);
      waiter = (p) => {
        clearTimeout(timer);
        resolve(p);
      };
    });
  return { ws, pushes, next };
}

const en = { title: 'Maintenance', content: 'Down tonight.' };
const jp = { title: 'メンテナンス', content: '今夜停止します。' };

describe('the notices console', () => {
  it('saves a draft in one language, lists the missing ones, keeps it off the phones and audits it', async () => {
    const res = await post('/api/v1/operator/notice/save', admin, { translations: { EN: en } });
    expect(res.statusCode, res.body).toBe(200);
    const draft = res.json().data;
    expect(draft).toMatchObject({ status: 'draft', publish_at: null, pushed_at: null, translations: { EN: en } });
    expect(draft.missing_langs).toEqual(['TW', 'JP', 'CN', 'KO', 'TH', 'PT', 'MS', 'ID', 'VN']);
    expect(await phoneIds()).not.toContain(draft.id);
    expect((await get(`/api/v1/notice/detail?id=${draft.id}`, user)).statusCode).toBe(404);

    const edited = await post('/api/v1/operator/notice/save', admin, { id: draft.id, translations: { EN: en, JP: jp } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data.missing_langs).not.toContain('JP');
    const audit = await auditOf(draft.id);
    expect(audit.map((a) => a.action)).toEqual(['notice.create', 'notice.update']);
    expect(audit[0]).toMatchObject({ actor_id: await userIdOf(adminAccount.address), before: null, after: { status: 'draft' } });
    expect(audit[1]?.before).toMatchObject({ translations: { EN: en } });

    const drafts = (await get('/api/v1/operator/notices?status=draft', viewer)).json().data;
    expect(drafts.list.map((n: { id: number }) => n.id)).toContain(draft.id);
    expect(drafts.list.every((n: { status: string }) => n.status === 'draft')).toBe(true);
  });

  it('publishes a saved draft by id now: phones list it, the socket is told, and it cannot be changed after', async () => {
    const draft = (await post('/api/v1/operator/notice/save', admin, { translations: { JP: jp } })).json().data;
    const socket = await openSocket(user);
    const next = socket.next();
    const res = await post('/api/v1/operator/notice/publish', admin, { id: draft.id }, 'KO');
    expect(res.statusCode, res.body).toBe(200);
    // KO, EN and TW are missing: the only language it has is shown.
    expect(res.json().data.title).toBe(jp.title);
    expect(await next).toEqual({ type: 'notice', data: { id: draft.id, titles: { JP: jp.title } } });
    socket.ws.close();
    expect(await phoneIds()).toContain(draft.id);
    expect((await consoleNotice(draft.id))?.status).toBe('published');
    expect((await auditOf(draft.id)).map((a) => a.action)).toEqual(['notice.create', 'notice.publish']);

    for (const [url, payload] of [
      ['/api/v1/operator/notice/publish', { id: draft.id }],
      ['/api/v1/operator/notice/save', { id: draft.id, translations: { EN: en } }],
    ] as const) {
      const again = await post(url, admin, payload);
      expect(again.statusCode).toBe(409);
      expect(again.json().reason).toBe('NOTICE_NOT_EDITABLE');
    }
  });

  it('schedules a notice: phones see it from its time on, and the job pushes it once', async () => {
    const at = new Date(t.clock.now().getTime() + 300_000).toISOString();
    const res = await post('/api/v1/operator/notice/save', admin, { translations: { EN: en }, publish_at: at });
    expect(res.statusCode, res.body).toBe(200);
    const scheduled = res.json().data;
    expect(scheduled).toMatchObject({ status: 'scheduled', publish_at: at });
    const socket = await openSocket(user);
    expect(await runNoticeRound(t.app.deps)).toBe(0);
    expect(await phoneIds()).not.toContain(scheduled.id);

    t.clock.advance(300_000);
    // Visible at its time whatever the job did…
    expect(await phoneIds()).toContain(scheduled.id);
    expect((await consoleNotice(scheduled.id))?.status).toBe('published');
    // …and pushed by the job's next round, once.
    const next = socket.next();
    expect(await runNoticeRound(t.app.deps)).toBe(1);
    expect(await next).toEqual({ type: 'notice', data: { id: scheduled.id, titles: { EN: en.title } } });
    expect(await runNoticeRound(t.app.deps)).toBe(0);
    expect((await consoleNotice(scheduled.id))?.pushed_at).toBe(t.clock.now().toISOString());
    socket.ws.close();
    expect(socket.pushes).toHaveLength(1);
  });

  it('withdraws a notice with a reason: phones no longer list or open it, the reason is audited', async () => {
    const published = (await post('/api/v1/operator/notice/publish', admin, { translations: { EN: en } })).json().data;
    expect(await phoneIds()).toContain(published.id);
    const res = await post('/api/v1/operator/notice/withdraw', admin, { id: published.id, reason: 'wrong date' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'withdrawn', withdraw_reason: 'wrong date' });
    expect(await phoneIds()).not.toContain(published.id);
    expect((await get(`/api/v1/notice/detail?id=${published.id}`, user)).statusCode).toBe(404);
    const audit = await auditOf(published.id);
    expect(audit.at(-1)).toMatchObject({ action: 'notice.withdraw', reason: 'wrong date', before: { status: 'published' }, after: { status: 'withdrawn' } });

    const again = await post('/api/v1/operator/notice/withdraw', admin, { id: published.id, reason: 'again' });
    expect(again.json().reason).toBe('NOTICE_NOT_EDITABLE');
    // A withdrawn scheduled notice is never pushed.
    const at = new Date(t.clock.now().getTime() + 60_000).toISOString();
    const scheduled = (await post('/api/v1/operator/notice/save', admin, { translations: { EN: en }, publish_at: at })).json().data;
    await post('/api/v1/operator/notice/withdraw', admin, { id: scheduled.id, reason: 'cancelled' });
    t.clock.advance(60_000);
    expect(await runNoticeRound(t.app.deps)).toBe(0);
    expect(await phoneIds()).not.toContain(scheduled.id);
  });

  it('checks roles: a viewer lists but cannot save, publish or withdraw; a user cannot list', async () => {
    expect((await get('/api/v1/operator/notices', viewer)).statusCode).toBe(200);
    expect((await get('/api/v1/operator/notices', user)).statusCode).toBe(403);
    for (const [url, payload] of [
      ['/api/v1/operator/notice/save', { translations: { EN: en } }],
      ['/api/v1/operator/notice/publish', { translations: { EN: en } }],
      ['/api/v1/operator/notice/withdraw', { id: 1, reason: 'x' }],
    ] as const) {
      const res = await post(url, viewer, payload);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().reason).toBe('FORBIDDEN');
    }
  });

  it.each([
    ['no language', '/api/v1/operator/notice/save', { translations: {} }],
    ['a publish time that is not a time', '/api/v1/operator/notice/save', { translations: { EN: en }, publish_at: 'tomorrow' }],
    ['an unknown field', '/api/v1/operator/notice/save', { translations: { EN: en }, pinned: true }],
    ['a withdrawal without a reason', '/api/v1/operator/notice/withdraw', { id: 1, reason: '  ' }],
    ['an unknown status filter', '', {}],
  ])('refuses %s with a translated 400', async (_name, url, payload) => {
    const res = url ? await post(url, admin, payload) : await get('/api/v1/operator/notices?status=pinned', admin);
    expect(res.statusCode).toBe(400);
    expect(res.json().reason).toBe('BAD_REQUEST');
    expect(res.json().msg).not.toBe('');
  });

  it('answers NOT_FOUND for an unknown notice', async () => {
    for (const [url, payload] of [
      ['/api/v1/operator/notice/save', { id: 999_999, translations: { EN: en } }],
      ['/api/v1/operator/notice/publish', { id: 999_999 }],
      ['/api/v1/operator/notice/withdraw', { id: 999_999, reason: 'x' }],
    ] as const) {
      expect((await post(url, admin, payload)).statusCode, url).toBe(404);
    }
  });
});
