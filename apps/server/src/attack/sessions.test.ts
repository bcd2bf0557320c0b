// Attack suite: sessions and security headers (docs/security.md "Sessions and headers").
// A token stolen from a browser is tried after every way a session ends (logout, idle expiry, a
// wallet switch, an operator's revoke) on one route of each authenticated class: a read, a money
// write, an operator route and the account socket's upgrade. Tokens are taken only from the
// authorization header (the socket's URL is the one exception) and never reach the log. Every
// answer the server gives (API, HTML, assets, 404s, errors) carries the security headers.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Route } from '@nadi/api/route';
import { sealRequest } from '@nadi/envelope/envelope';
import { rowsOf } from '../db/rows.ts';
import { redactedValue } from '../lib/request-log.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../test/harness.ts';
import { sealedInject, sealedSignIn, testEnvelopeKeys } from '../test/envelope.ts';
import { balanceOf, fundUser } from '../test/money.ts';
import { newAccount, signIn } from '../test/sign-in.ts';
import { loadContractRoutes } from '../test/contract-routes.ts';

const unit = 10n ** 18n;
const idleMs = 360_000;

// Every route of the contract, loaded before the tests are collected.
const contractRoutesByKey = await loadContractRoutes();
const contractRoutes = () => [...contractRoutesByKey.values()];

async function userIdOf(t: TestApp, address: string): Promise<number> {
  const row = rowsOf<{ id: number }>(await t.database.db.execute(sql`select id from users where address = ${address.toLowerCase()}`))[0];
  if (!row) throw new Error(`no user ${address}`);
  return Number(row.id);
}

async function grantRole(t: TestApp, userId: number, role: 'viewer' | 'operator' | 'admin') {
  await t.database.db.execute(sql`insert into operator_roles (user_id, role, granted_at) values (${userId}, ${role}, now())`);
}

interface Victim {
  token: string;
  userId: number;
  address: string;
  account: ReturnType<typeof newAccount>;
}

/** A signed-in user with 10 USDT to move and the viewer role, so one token reaches every route class. */
async function newVictim(t: TestApp): Promise<Victim> {
  const account = newAccount();
  const token = await signIn(t.app, account, rootInviteCode);
  const userId = await userIdOf(t, account.address);
  await fundUser(t.database.db, userId, 'USDT', 10n * unit);
  await grantRole(t, userId, 'viewer');
  return { token, userId, address: account.address.toLowerCase(), account };
}

type RouteClass = 'read' | 'money write' | 'operator' | 'socket';

/** One request of each authenticated class with `token`; the socket's answer is its upgrade's status. */
async function tryEveryClass(t: TestApp, token: string): Promise<Record<RouteClass, { status: number; reason?: string }>> {
  const answer = (res: LightMyRequestResponse) => ({ status: res.statusCode, reason: (res.json() as { reason?: string }).reason });
  const headers = { authorization: token };
  const read = answer(await t.app.inject({ method: 'GET', url: '/api/v1/wallet/assets', headers }));
  const write = answer(
    await t.app.inject({ method: 'POST', url: '/api/v1/wallet/transfer', headers, payload: { asset: 'USDT', from: 'fund', to: 'trade', amount: '1' } }),
  );
  const operator = answer(await t.app.inject({ method: 'GET', url: '/api/v1/operator/me', headers }));
  let socket: { status: number };
  try {
    const ws = await t.app.injectWS(`/ws?token=${encodeURIComponent(token)}`);
    ws.terminate();
    socket = { status: 101 };
  } catch (error) {
    // injectWS rejects with "Unexpected server response: <status>".
    socket = { status: Number(/(\d{3})/.exec(String(error))?.[1] ?? 0) };
  }
  return { read, 'money write': write, operator, socket };
}

async function expectAccepted(t: TestApp, token: string) {
  const answers = await tryEveryClass(t, token);
  expect(answers).toEqual({ read: { status: 200 }, 'money write': { status: 200 }, operator: { status: 200 }, socket: { status: 101 } });
}

/** Every class refused 401 with the reason, and the victim's money did not move. */
async function expectRefused(t: TestApp, victim: Victim, reason: 'UNAUTHORIZED' | 'SESSION_EXPIRED') {
  const before = await balanceOf(t.database.db, victim.userId, 'fund', 'USDT');
  const answers = await tryEveryClass(t, victim.token);
  expect(answers).toEqual({
    read: { status: 401, reason },
    'money write': { status: 401, reason },
    operator: { status: 401, reason },
    socket: { status: 401 },
  });
  expect(await balanceOf(t.database.db, victim.userId, 'fund', 'USDT')).toEqual(before);
}

describe('a stolen token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('is refused everywhere after logout, and cannot log out twice', async () => {
    const victim = await newVictim(t);
    await expectAccepted(t, victim.token);
    const logout = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { authorization: victim.token } });
    expect(logout.statusCode).toBe(200);
    await expectRefused(t, victim, 'UNAUTHORIZED');
    const again = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { authorization: victim.token } });
    expect(again.statusCode).toBe(401);
  });

  it('works and renews until 360000 ms idle, then is refused everywhere as expired', async () => {
    const victim = await newVictim(t);
    await expectAccepted(t, victim.token);
    // Just before the idle limit it still works, and that use renews it for another full period.
    t.clock.advance(idleMs - 1);
    await expectAccepted(t, victim.token);
    const renewed = rowsOf<{ expires_at: Date | string }>(
      await t.database.db.execute(sql`select expires_at from sessions where user_id = ${victim.userId}`),
    )[0];
    expect(new Date(renewed?.expires_at ?? 0).getTime()).toBe(t.clock.now().getTime() + idleMs);
    t.clock.advance(idleMs - 1);
    await expectAccepted(t, victim.token);
    // A full idle period without a request: expired on every class, and it stays so.
    t.clock.advance(idleMs);
    await expectRefused(t, victim, 'SESSION_EXPIRED');
    await expectRefused(t, victim, 'SESSION_EXPIRED');
  });

  it("is refused after a wallet switch (the app logs out before the new wallet signs); another wallet's sign-in alone leaves it to its own user", async () => {
    const first = await newVictim(t);
    // A second device of the same wallet, still signed in when the first switches away.
    const otherDevice = await signInAgain(t, first);
    const second = newAccount();
    // The phone app's switch (features/auth/account-watcher.ts): sign out, then the new wallet signs.
    await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { authorization: first.token } });
    const secondToken = await signIn(t.app, second, rootInviteCode);
    await expectRefused(t, first, 'UNAUTHORIZED');
    // The other device's session belongs to the first wallet only: still its user, never the new one.
    const info = await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: otherDevice } });
    expect(info.json().data.wallet_address.toLowerCase()).toBe(first.address);
    const secondInfo = await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: secondToken } });
    expect(secondInfo.json().data.wallet_address.toLowerCase()).toBe(second.address.toLowerCase());
  });

  it("is refused everywhere after an operator revokes the session, or all of the user's sessions", async () => {
    // Signed in now: the expiry test's clock has moved past any earlier session's life.
    const operatorAccount = newAccount();
    const admin = await signIn(t.app, operatorAccount, rootInviteCode);
    await grantRole(t, await userIdOf(t, operatorAccount.address), 'operator');
    const victim = await newVictim(t);
    await expectAccepted(t, victim.token);
    const detail = await t.app.inject({ method: 'GET', url: `/api/v1/operator/user?id=${victim.userId}`, headers: { authorization: admin } });
    const sessionId = (detail.json().data.sessions as { id: number }[])[0]?.id;
    const revoke = await t.app.inject({
      method: 'POST',
      url: '/api/v1/operator/session/revoke',
      headers: { authorization: admin },
      payload: { session_id: sessionId },
    });
    expect(revoke.json().data).toEqual({ revoked: 1 });
    await expectRefused(t, victim, 'UNAUTHORIZED');

    const other = await newVictim(t);
    const secondDevice = await signInAgain(t, other);
    await expectAccepted(t, secondDevice);
    const all = await t.app.inject({
      method: 'POST',
      url: '/api/v1/operator/user/sessions/revoke',
      headers: { authorization: admin },
      payload: { user_id: other.userId },
    });
    expect(all.json().data).toEqual({ revoked: 2 });
    await expectRefused(t, other, 'UNAUTHORIZED');
    await expectRefused(t, { ...other, token: secondDevice }, 'UNAUTHORIZED');
  });

  it("closes the sockets it opened when its session ends, so an open socket stops hearing the user's balances and orders", async () => {
    const victim = await newVictim(t);
    const closed = (ws: Awaited<ReturnType<typeof t.app.injectWS>>) => new Promise<number>((resolve) => ws.on('close', (code: number) => resolve(code)));
    const account = await t.app.injectWS(`/ws?token=${encodeURIComponent(victim.token)}`);
    const accountClosed = closed(account);
    const trade = await t.app.injectWS(`/ws/trade?token=${encodeURIComponent(victim.token)}`);
    const tradeClosed = closed(trade);
    const subscribed = new Promise<string>((resolve) => trade.on('message', (data: Buffer) => resolve(data.toString())));
    trade.send(JSON.stringify({ method: 'SUBSCRIBE', params: ['user@update_order'], id: 1 }));
    expect(JSON.parse(await subscribed)).toEqual({ id: 1, result: null });
    // Another user's logout closes nothing of the victim's.
    const bystander = await newVictim(t);
    await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { authorization: bystander.token } });
    expect(account.readyState).toBe(account.OPEN);
    await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { authorization: victim.token } });
    expect(await accountClosed).toBe(1008);
    expect(await tradeClosed).toBe(1008);
  });

  it('is never taken from the query string of an HTTP route, only from the authorization header', async () => {
    const victim = await newVictim(t);
    const token = encodeURIComponent(victim.token);
    const authRoutes = contractRoutes().filter((r) => r.auth);
    expect(authRoutes.length).toBeGreaterThan(50);
    const statuses = new Map<number, number>();
    for (const r of authRoutes) {
      for (const query of [`token=${token}`, `authorization=${token}`, `Authorization=Bearer%20${token}`]) {
        const res = await t.app.inject({ method: r.method, url: `${r.path}?${query}`, ...(r.method === 'POST' ? { payload: {} } : {}) });
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        // Refused (401 without a session, or 400 when a POST's empty body fails validation first).
        expect([400, 401], `${r.method} ${r.path}?${query.split('=')[0]}`).toContain(res.statusCode);
      }
    }
    // A GET route with all its input optional reaches the session check: 401, never the data.
    expect(statuses.get(401)).toBeGreaterThan(authRoutes.length);
    // The same token in the header is accepted: the refusals above are the query, not the token.
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/wallet/assets', headers: { authorization: victim.token } })).statusCode).toBe(200);
  });
});

/** A second session of the same wallet (another device). */
async function signInAgain(t: TestApp, victim: Victim): Promise<string> {
  const rows = rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from sessions where user_id = ${victim.userId}`));
  const token = await signIn(t.app, victim.account);
  const after = rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from sessions where user_id = ${victim.userId}`));
  expect(Number(after[0]?.n)).toBe(Number(rows[0]?.n) + 1);
  return token;
}

/** A pino destination kept in memory: everything the server logged, as text. */
function memoryLog() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  return { stream, text: () => chunks.join('') };
}

/** Opens a socket and closes it at once; a refused upgrade is fine here (only the log is read). */
async function touchSocket(t: TestApp, url: string): Promise<void> {
  try {
    (await t.app.injectWS(url)).terminate();
  } catch {
    // Refused upgrades are logged too, which is the point.
  }
}

describe('the log, at trace level', () => {
  const plainLog = memoryLog();
  const sealedLog = memoryLog();
  let plain: TestApp;
  let sealed: TestApp;
  beforeAll(async () => {
    plain = await createTestApp({}, { logger: { level: 'trace', stream: plainLog.stream } });
    sealed = await createTestApp({ ENCRYPTION: 'on', ENVELOPE_KEYS: testEnvelopeKeys }, { logger: { level: 'trace', stream: sealedLog.stream } });
  });
  afterAll(async () => {
    await plain?.close();
    await sealed?.close();
  });

  it('never holds a session token: header, refused query, socket URL, sealed request or sealed socket', async () => {
    const token = await signIn(plain.app, newAccount(), rootInviteCode);
    const headers = { authorization: token };
    expect((await plain.app.inject({ method: 'GET', url: '/api/v1/user/info', headers })).statusCode).toBe(200);
    expect((await plain.app.inject({ method: 'GET', url: `/api/v1/user/info?token=${token}` })).statusCode).toBe(401);
    expect((await plain.app.inject({ method: 'GET', url: `/api/v1/user/info?Authorization=${token}&x=1` })).statusCode).toBe(401);
    expect((await plain.app.inject({ method: 'POST', url: '/api/v1/wallet/transfer', headers, payload: { asset: 'USDT', amount: 'x' } })).statusCode).toBe(400);
    await touchSocket(plain, `/ws?token=${token}`);
    await touchSocket(plain, `/ws/trade?lang=EN&token=${token}`);
    await touchSocket(plain, `/ws?token=${token}x`);
    expect((await plain.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers })).statusCode).toBe(200);
    expect((await plain.app.inject({ method: 'GET', url: '/api/v1/user/info', headers })).statusCode).toBe(401);

    const sealedSession = await sealedSignIn(sealed, rootInviteCode);
    const now = sealed.clock.now().getTime();
    const info = await sealedInject(sealed.app, { method: 'GET', path: '/api/v1/user/info', token: sealedSession.token, now });
    expect(info.statusCode).toBe(200);
    const key = (await sealed.app.inject({ method: 'GET', url: '/api/v1/common/config' })).json().data.encryption.keys[0];
    const seal = await sealRequest({
      kid: key.kid,
      publicKey: key.public_key,
      method: 'GET',
      path: '/ws',
      payload: { input: {}, token: sealedSession.token },
      now,
    });
    await touchSocket(sealed, `/ws?${new URLSearchParams({ ...seal.form }).toString()}`);
    // A plain token in a socket URL is refused when encryption is on, and still not logged.
    await touchSocket(sealed, `/ws?token=${sealedSession.token}`);

    for (const [log, secret] of [
      [plainLog.text(), token],
      [sealedLog.text(), sealedSession.token],
    ] as const) {
      // The log is real (requests and their URLs are there), only the secret is not.
      expect(log).toContain('incoming request');
      expect(log).toContain(`/ws?token=${redactedValue}`);
      expect(log).not.toContain(secret);
      expect(log).not.toContain(encodeURIComponent(secret));
    }
    expect(plainLog.text()).toContain(`/ws/trade?lang=EN&token=${redactedValue}`);
  });
});

/** A built app's shape: index.html and one hashed asset, as vite writes them. */
function fakeDist(work: string, name: string): string {
  const dir = join(work, name);
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), `<!doctype html><html><head><script type="module" src="/assets/${name}-abc.js"></script></head></html>`);
  writeFileSync(join(dir, 'assets', `${name}-abc.js`), `console.log('${name}')`);
  return dir;
}

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name ?? '', values]),
  );
}

/** Everything docs/security.md promises on an answer; HSTS only where the deployment has https. */
function expectSecurityHeaders(res: LightMyRequestResponse, hasHsts: boolean, what: string) {
  const csp = directives(String(res.headers['content-security-policy'] ?? ''));
  const scripts = csp.get('script-src') ?? csp.get('default-src');
  expect(scripts, `${what}: script-src`).toEqual(["'self'"]);
  expect(csp.get('script-src-attr'), `${what}: script-src-attr`).toEqual(["'none'"]);
  expect(csp.get('object-src'), `${what}: object-src`).toEqual(["'none'"]);
  expect(csp.get('frame-ancestors'), `${what}: frame-ancestors`).toEqual(["'none'"]);
  expect(res.headers['x-frame-options'], what).toBe('DENY');
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  expect(res.headers['referrer-policy'], what).toBe('no-referrer');
  const hsts = res.headers['strict-transport-security'];
  if (!hasHsts) {
    expect(hsts, `${what}: no HSTS in development`).toBeUndefined();
    return;
  }
  const maxAge = Number(/max-age=(\d+)/.exec(String(hsts))?.[1] ?? 0);
  expect(maxAge, `${what}: HSTS max-age`).toBeGreaterThanOrEqual(31_536_000);
  expect(String(hsts), `${what}: HSTS`).toContain('includeSubDomains');
}

/**
 * Each route without a session and with one: GETs with no query, POSTs with an empty body (the
 * contract has no path parameters). Logout goes last, so the session lives through the walk.
 */
function requestsFor(routes: Route[], token: string): InjectOptions[] {
  const isLogout = (r: Route) => r.path === '/api/v1/auth/logout';
  const ordered = [...routes.filter((r) => !isLogout(r)), ...routes.filter(isLogout)];
  return ordered.flatMap((r) => [
    { method: r.method, url: r.path, ...(r.method === 'POST' ? { payload: {} } : {}) },
    { method: r.method, url: r.path, headers: { authorization: token }, ...(r.method === 'POST' ? { payload: {} } : {}) },
  ]);
}

/** Pages, assets, 404s and error answers the contract does not list. */
const otherRequests: InjectOptions[] = [
  { method: 'GET', url: '/' },
  { method: 'GET', url: '/wallet/assets' },
  { method: 'GET', url: '/assets/web-abc.js' },
  { method: 'GET', url: '/assets/missing.js' },
  { method: 'GET', url: '/admin' },
  { method: 'GET', url: '/admin/' },
  { method: 'GET', url: '/admin/withdrawals?status=0' },
  { method: 'GET', url: '/admin/assets/admin-abc.js' },
  { method: 'GET', url: '/admin/assets/missing.js' },
  { method: 'GET', url: '/api/v1/nothing' },
  { method: 'DELETE', url: '/api/v1/wallet/assets' },
  { method: 'GET', url: '/api/v1/%zz' },
  { method: 'GET', url: '/healthz' },
  { method: 'GET', url: '/docs' },
  { method: 'GET', url: '/docs/json' },
  { method: 'GET', url: '/ws' },
  { method: 'POST', url: '/api/v1/auth/isRegister', headers: { 'content-type': 'application/json' }, payload: '{"address":' },
  { method: 'POST', url: '/api/v1/auth/isRegister', headers: { 'content-type': 'text/xml' }, payload: '<a/>' },
  { method: 'POST', url: '/api/v1/auth/isRegister', headers: { 'content-type': 'application/json' }, payload: `"${'a'.repeat(70 * 1024)}"` },
  {
    method: 'POST',
    url: '/api/v1/auth/isRegister',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'handshake=x&timestamp=1&sign=x&data=x',
  },
];

describe('security headers', () => {
  const work = mkdtempSync(join(tmpdir(), 'nadi-headers-'));
  const dists = { WEB_DIST: fakeDist(work, 'web'), ADMIN_DIST: fakeDist(work, 'admin') };
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  for (const env of ['development', 'production', 'staging'] as const) {
    it(`are on every answer in ${env}: every contract route, the apps' pages and assets, 404s and errors`, async () => {
      // Production's other settings (a real chain, keys) do not matter to headers; only APP_ENV does.
      const t = await createTestApp(dists, env === 'development' ? {} : { settings: { env } });
      try {
        const token = await signIn(t.app, newAccount(), rootInviteCode);
        const requests = [...requestsFor(contractRoutes(), token), ...otherRequests];
        const byStatus = new Map<number, number>();
        for (const request of requests) {
          const res = await t.app.inject(request);
          byStatus.set(res.statusCode, (byStatus.get(res.statusCode) ?? 0) + 1);
          // The test chain is unreachable (port 9), so a route that asks it answers CHAIN_UNAVAILABLE;
          // any other 5xx, above all an undeclared INTERNAL, is a failure.
          if (res.statusCode >= 500) expect(res.json().reason, `${request.method} ${request.url}`).toBe('CHAIN_UNAVAILABLE');
          expectSecurityHeaders(res, env !== 'development', `${request.method} ${request.url} → ${res.statusCode}`);
        }
        console.info(`security headers (${env}): ${requests.length} requests, by status ${JSON.stringify(Object.fromEntries(byStatus))}`);
        // The walk reached real pages, answers and each kind of refusal, and nothing failed.
        for (const status of [200, 302, 400, 401, 403, 404, 413]) expect(byStatus.get(status), `status ${status}`).toBeGreaterThan(0);
        expect([...byStatus.keys()].filter((s) => s >= 500 && s !== 503)).toEqual([]);
      } finally {
        await t.close();
      }
    });
  }
});
