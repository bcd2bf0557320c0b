// Publishing a notice: operators only, validated like every input, stored, and pushed once
// committed to every signed-in user's account socket (/ws) with its title in each language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSocketPush } from '@nadi/api/trade-socket';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';

const operatorAccount = newAccount();
let t: TestApp;
let base = '';
let operatorToken: string;
let userToken: string;

beforeAll(async () => {
  t = await createTestApp({ OPERATOR_ADDRESSES: operatorAccount.address });
  operatorToken = await signIn(t.app, operatorAccount, rootInviteCode);
  userToken = await signIn(t.app, newAccount(), rootInviteCode);
  base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('http://', 'ws://');
});
afterAll(async () => {
  await t.close();
});

const translations = {
  TW: { title: '維護通知', content: '今晚系統維護。' },
  EN: { title: 'Maintenance', content: 'The system is down for maintenance tonight.' },
};
const publish = (token: string, payload: unknown, lang = 'EN') =>
  t.app.inject({ method: 'POST', url: '/api/v1/operator/notice/publish', payload: payload as object, headers: { authorization: token, lang } });
const total = async () =>
  (await t.app.inject({ method: 'GET', url: '/api/v1/notice/list', headers: { authorization: userToken } })).json().data.total as number;

/** Opens /ws for a token and resolves with the first notice push (or fails after timeoutMs). */
async function firstNoticePush(token: string, timeoutMs = 5_000): Promise<{ ws: WebSocket; push: Promise<AccountSocketPush> }> {
  const ws = new WebSocket(`${base}/ws?token=${token}`);
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve);
    ws.addEventListener('error', () => reject(new Error('could not open /ws')));
  });
  const push = new Promise<AccountSocketPush>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no notice push within ${timeoutMs} ms`)), timeoutMs);
    ws.addEventListener('message', (e) => {
      const text = String(e.data);
      if (!text.startsWith('{')) return;
      const message = JSON.parse(text) as AccountSocketPush;
      if (message.type !== 'notice') return;
      clearTimeout(timer);
      resolve(message);
    });
  });
  return { ws, push };
}

describe('publishing a notice', () => {
  it('stores it, answers it in the caller language and pushes every title to signed-in users', async () => {
    const before = await total();
    const { ws, push } = await firstNoticePush(userToken);
    const res = await publish(operatorToken, { translations }, 'JP');
    expect(res.statusCode, res.body).toBe(200);
    const notice = res.json().data;
    // JP has no text: English is the fallback, as in the lists.
    expect(notice).toMatchObject({ title: 'Maintenance', content: 'The system is down for maintenance tonight.' });
    expect(await push).toEqual({ type: 'notice', data: { id: notice.id, titles: { TW: '維護通知', EN: 'Maintenance' } } });
    ws.close();
    expect(await total()).toBe(before + 1);
    const detail = await t.app.inject({ method: 'GET', url: `/api/v1/notice/detail?id=${notice.id}`, headers: { authorization: userToken, lang: 'TW' } });
    expect(detail.json().data.title).toBe('維護通知');
  });

  it('refuses a user who is not an operator, and stores nothing', async () => {
    const before = await total();
    const res = await publish(userToken, { translations });
    expect(res.statusCode).toBe(403);
    expect(res.json().reason).toBe('FORBIDDEN');
    expect(await total()).toBe(before);
  });

  it.each([
    ['no language at all', { translations: {} }],
    ['both an id and translations', { id: 1, translations }],
    ['an empty title', { translations: { TW: { title: '  ', content: 'x' } } }],
    ['a title over 100 characters', { translations: { TW: { title: 'x'.repeat(101), content: 'x' } } }],
    ['an unknown language', { translations: { ...translations, XX: translations.EN } }],
    ['no translations', {}],
  ])('refuses %s with a translated 400, and stores nothing', async (_name, payload) => {
    const before = await total();
    const res = await publish(operatorToken, payload, 'EN');
    expect(res.statusCode).toBe(400);
    expect(res.json().reason).toBe('BAD_REQUEST');
    expect(res.json().msg).not.toBe('');
    expect(await total()).toBe(before);
  });
});
