import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';
import { demoNotices } from '../../db/seed/notices.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await signIn(t.app, newAccount(), rootInviteCode);
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, lang = 'EN') => t.app.inject({ method: 'GET', url, headers: { authorization: token, lang } });

describe('notices', () => {
  it('lists the seeded notices newest first, paged, in the reader language', async () => {
    const page1 = (await get('/api/v1/notice/list?page=1&page_size=2')).json().data;
    expect(page1.total).toBe(demoNotices.length);
    expect(page1.list.map((n: { title: string }) => n.title)).toEqual(['Welcome to NADI', 'Node sale countdown has started']);
    const page2 = (await get('/api/v1/notice/list?page=2&page_size=2')).json().data;
    expect(page2.list).toHaveLength(1);
    const jp = (await get('/api/v1/notice/list', 'JP')).json().data;
    expect(jp.list[0].title).toBe('NADI へようこそ');
  });

  it('shows one notice and answers NOT_FOUND for an unknown id', async () => {
    const list = (await get('/api/v1/notice/list')).json().data;
    const detail = await get(`/api/v1/notice/detail?id=${list.list[0].id}`, 'KO');
    expect(detail.json().data.content).toContain('NADI');
    expect(detail.json().data.title).toBe('NADI에 오신 것을 환영합니다');
    const missing = await get('/api/v1/notice/detail?id=999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().reason).toBe('NOT_FOUND');
  });

  it.each(['page=0', 'page_size=51', 'page=abc', 'page=1e3'])('refuses the query %s', async (query) => {
    const res = await get(`/api/v1/notice/list?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().reason).toBe('BAD_REQUEST');
  });

  it.each(['id=0', 'id=-1', 'id=abc', 'id=99999999999'])('refuses the detail query %s', async (query) => {
    const res = await get(`/api/v1/notice/detail?${query}`);
    expect(res.statusCode).toBe(400);
  });
});
