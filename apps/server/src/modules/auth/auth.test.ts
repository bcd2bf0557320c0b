import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSiweMessage, parseSiweMessage } from 'viem/siwe';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/rows.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { sha256Hex } from './index.ts';
import { fetchMessage, newAccount, postLogin, signIn } from '../../test/sign-in.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function sessionCount(): Promise<number> {
  const rows = await t.database.db.execute<{ n: number }>(sql`select count(*)::int as n from sessions`);
  const first = (rows as unknown as { rows?: { n: number }[] }).rows?.[0] ?? (rows as unknown as { n: number }[])[0];
  return Number(first?.n);
}

/** Rebuilds the server's message with one field changed, keeping its real nonce. */
function tamper(message: string, change: Record<string, unknown>): string {
  const fields = parseSiweMessage(message);
  return createSiweMessage({ ...(fields as Parameters<typeof createSiweMessage>[0]), ...change });
}

describe('sign-in with Ethereum', () => {
  it('registers a new wallet with an invite code and opens a session', async () => {
    const account = newAccount();
    const token = await signIn(t.app, account, rootInviteCode);
    const info = await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: token } });
    expect(info.statusCode).toBe(200);
    const data = info.json().data;
    expect(data.wallet_address).toBe(account.address.toLowerCase());
    expect(data.referrer_code).toBe(rootInviteCode);
    expect(data.invite_code).toMatch(/^[A-Z2-9]{8}$/);
    expect(data.invite_link).toBe(`http://localhost:8080/?code=${data.invite_code}`);
  });

  it('signs an existing user in again without a code', async () => {
    const account = newAccount();
    await signIn(t.app, account, rootInviteCode);
    const message = await fetchMessage(t.app, account.address);
    const res = await postLogin(t.app, { address: account.address, message, sign_message: await account.signMessage({ message }) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.is_new_user).toBe(false);
  });

  it('refuses a replay of a used message and signature', async () => {
    const account = newAccount();
    const message = await fetchMessage(t.app, account.address);
    const body = { address: account.address, message, sign_message: await account.signMessage({ message }), code: rootInviteCode };
    expect((await postLogin(t.app, body)).statusCode).toBe(200);
    const replay = await postLogin(t.app, body);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().reason).toBe('SIWE_NONCE_INVALID');
  });

  it.each([
    ['another domain', { domain: 'evil.example' }, 'SIWE_WRONG_DOMAIN'],
    ['another chain id', { chainId: 56 }, 'SIWE_WRONG_CHAIN'],
    ['a URI on another site', { uri: 'https://evil.example/login' }, 'SIWE_WRONG_URI'],
    ['a nonce the server never issued', { nonce: 'abcdef1234567890' }, 'SIWE_NONCE_INVALID'],
  ])('rejects a message signed for %s', async (_label, change, reason) => {
    const account = newAccount();
    const message = tamper(await fetchMessage(t.app, account.address), change);
    const res = await postLogin(t.app, { address: account.address, message, sign_message: await account.signMessage({ message }), code: rootInviteCode });
    expect(res.statusCode).toBe(400);
    expect(res.json().reason).toBe(reason);
  });

  it('rejects a message naming another address, and a signature from another key', async () => {
    const account = newAccount();
    const other = newAccount();
    const message = await fetchMessage(t.app, account.address);
    const wrongAddress = await postLogin(t.app, { address: other.address, message, sign_message: await other.signMessage({ message }), code: rootInviteCode });
    expect(wrongAddress.json().reason).toBe('SIWE_WRONG_ADDRESS');
    const wrongKey = await postLogin(t.app, { address: account.address, message, sign_message: await other.signMessage({ message }), code: rootInviteCode });
    expect(wrongKey.statusCode).toBe(400);
    expect(wrongKey.json().reason).toBe('SIWE_SIGNATURE_INVALID');
    // The failed attempts did not burn the nonce: the right signature still works.
    const right = await postLogin(t.app, { address: account.address, message, sign_message: await account.signMessage({ message }), code: rootInviteCode });
    expect(right.statusCode).toBe(200);
  });

  it('rejects an expired message', async () => {
    const account = newAccount();
    const message = await fetchMessage(t.app, account.address);
    const sign_message = await account.signMessage({ message });
    t.clock.advance(t.settings.loginMessageTtlMs + 1);
    const res = await postLogin(t.app, { address: account.address, message, sign_message, code: rootInviteCode });
    expect(res.json().reason).toBe('SIWE_EXPIRED');
  });

  it('rejects malformed, oversized and garbage input without a session', async () => {
    const before = await sessionCount();
    const account = newAccount();
    const sig = await account.signMessage({ message: 'hello' });
    const malformed = await postLogin(t.app, { address: account.address, message: 'hello', sign_message: sig });
    expect(malformed.json().reason).toBe('SIWE_MALFORMED');
    const oversized = await postLogin(t.app, { address: account.address, message: 'x'.repeat(5000), sign_message: sig });
    expect(oversized.statusCode).toBe(400);
    expect(oversized.json().reason).toBe('BAD_REQUEST');
    expect(oversized.json().fields).toHaveProperty('message');
    const badAddress = await postLogin(t.app, { address: '0x123', message: 'hello', sign_message: sig });
    expect(badAddress.json().fields).toHaveProperty('address');
    const message = await fetchMessage(t.app, account.address);
    const badSig = await postLogin(t.app, { address: account.address, message, sign_message: '0x1234', code: rootInviteCode });
    expect(badSig.json().reason).toBe('SIWE_SIGNATURE_INVALID');
    const notJson = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: '{', headers: { 'content-type': 'application/json' } });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().reason).toBe('BAD_REQUEST');
    expect(await sessionCount()).toBe(before);
  });

  it('opens exactly one session when 20 logins with one signed message arrive at once', async () => {
    const account = newAccount();
    const message = await fetchMessage(t.app, account.address);
    const body = { address: account.address, message, sign_message: await account.signMessage({ message }), code: rootInviteCode };
    const before = await sessionCount();
    const results = await Promise.all(Array.from({ length: 20 }, () => postLogin(t.app, body)));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode !== 200).every((r) => r.json().reason === 'SIWE_NONCE_INVALID')).toBe(true);
    expect(await sessionCount()).toBe(before + 1);
  });
});

describe('registration', () => {
  it('asks an unregistered address for an invite code (HTTP 401, body code 200), then accepts a valid one', async () => {
    const account = newAccount();
    const message = await fetchMessage(t.app, account.address);
    const sign_message = await account.signMessage({ message });
    const isRegister = await t.app.inject({ method: 'POST', url: '/api/v1/auth/isRegister', payload: { address: account.address } });
    expect(isRegister.json().data.is_register).toBe(false);

    const noCode = await postLogin(t.app, { address: account.address, message, sign_message });
    expect(noCode.statusCode).toBe(401);
    expect(noCode.json()).toMatchObject({ code: 200, reason: 'INVITE_REQUIRED', msg: 'Please enter via an invite code.' });

    const badCode = await postLogin(t.app, { address: account.address, message, sign_message, code: 'NOSUCH99' });
    expect(badCode.statusCode).toBe(400);
    expect(badCode.json().reason).toBe('INVITE_INVALID');

    const malformedCode = await postLogin(t.app, { address: account.address, message, sign_message, code: 'no!' });
    expect(malformedCode.json().fields).toHaveProperty('code');

    const ok = await postLogin(t.app, { address: account.address, message, sign_message, code: rootInviteCode.toLowerCase() });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.is_new_user).toBe(true);
    const after = await t.app.inject({ method: 'POST', url: '/api/v1/auth/isRegister', payload: { address: account.address } });
    expect(after.json().data.is_register).toBe(true);
  });

  it('fixes the referrer and counts direct referrals and the whole team', async () => {
    const a = newAccount();
    const b = newAccount();
    const c = newAccount();
    const tokenA = await signIn(t.app, a, rootInviteCode);
    const infoA = async () => (await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: tokenA } })).json().data;
    const codeA = (await infoA()).invite_code;
    const tokenB = await signIn(t.app, b, codeA);
    const codeB = (await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: tokenB } })).json().data.invite_code;
    await signIn(t.app, c, codeB);
    // Signing in again with someone else's code never moves B.
    await signIn(t.app, b, rootInviteCode);
    const data = await infoA();
    expect(data.zhi_num).toBe(1);
    expect(data.team_num).toBe(2);
  });
});

describe('sessions and guards', () => {
  const authRoutes = [
    { method: 'GET' as const, url: '/api/v1/user/info' },
    { method: 'POST' as const, url: '/api/v1/auth/logout' },
    { method: 'GET' as const, url: '/api/v1/notice/list' },
    { method: 'GET' as const, url: '/api/v1/notice/detail?id=1' },
  ];

  it.each(authRoutes)('$method $url needs a session', async ({ method, url }) => {
    const none = await t.app.inject({ method, url });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ code: 401, reason: 'UNAUTHORIZED', data: null });
    const forged = await t.app.inject({ method, url, headers: { authorization: 'Bearer not-a-real-token' } });
    expect(forged.statusCode).toBe(401);
  });

  it('ends a session on logout', async () => {
    const token = await signIn(t.app, newAccount(), rootInviteCode);
    const out = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { authorization: token } });
    expect(out.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: token } });
    expect(after.json().reason).toBe('UNAUTHORIZED');
  });

  it('expires after 360000 ms idle and renews on activity', async () => {
    const token = await signIn(t.app, newAccount(), rootInviteCode);
    const info = () => t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: token } });
    t.clock.advance(300_000);
    expect((await info()).statusCode).toBe(200);
    t.clock.advance(300_000);
    expect((await info()).statusCode).toBe(200);
    t.clock.advance(360_001);
    const expired = await info();
    expect(expired.statusCode).toBe(401);
    expect(expired.json().reason).toBe('SESSION_EXPIRED');
  });

  it('writes the renewal to the session row, and leaves the commit mode of the connections as it was', async () => {
    const token = await signIn(t.app, newAccount(), rootInviteCode);
    t.clock.advance(300_000);
    const now = t.clock.now();
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: token } })).statusCode).toBe(200);
    const row = rowsOf<{ last_seen_at: Date | string; expires_at: Date | string }>(
      await t.app.deps.db.execute(sql`select last_seen_at, expires_at from sessions where token_hash = ${sha256Hex(token)}`),
    )[0];
    expect(new Date(row!.last_seen_at).getTime()).toBe(now.getTime());
    expect(new Date(row!.expires_at).getTime()).toBe(now.getTime() + t.app.deps.settings.sessionIdleMs);
    // The renewal turns synchronous_commit off for its own transaction only.
    const modes = await Promise.all(
      Array.from(
        { length: 8 },
        async () => rowsOf<{ mode: string }>(await t.app.deps.db.execute(sql`select current_setting('synchronous_commit') as mode`))[0]?.mode,
      ),
    );
    expect(new Set(modes)).toEqual(new Set(['on']));
  });
});

describe('language header', () => {
  it('translates server messages', async () => {
    const en = await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { lang: 'EN' } });
    const jp = await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { lang: 'JP' } });
    const tw = await t.app.inject({ method: 'GET', url: '/api/v1/user/info' });
    expect(en.json().msg).toBe('Please sign in first.');
    expect(jp.json().msg).toBe('先にログインしてください。');
    expect(tw.json().msg).toBe('請先登入。');
  });
});
