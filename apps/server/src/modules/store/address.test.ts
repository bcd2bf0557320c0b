import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressesPerUserMax, addressRoutes } from '@nadi/api/store-address';
import { rowsOf } from '../../db/rows.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const base = '/api/v1/address';
const home = { receiver_name: 'Lin Mei', phone_country: 'TW', phone: '0912-345-678', area: 'Taipei City, Da-an District', detail: 'No. 1, Lane 2, Section 3' };

interface Item {
  id: number;
  receiver_name: string;
  phone: string;
  is_default: boolean;
}

/** A signed-in user's calls to the address API. */
function userApi(token: string) {
  const get = (path: string, lang = 'EN') => t.app.inject({ method: 'GET', url: `${base}/${path}`, headers: { authorization: token, lang } });
  const post = (path: string, payload: object, lang = 'EN') =>
    t.app.inject({ method: 'POST', url: `${base}/${path}`, payload, headers: { authorization: token, lang } });
  const ok = async <T>(res: Awaited<ReturnType<typeof get>>): Promise<T> => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as T;
  };
  return {
    get,
    post,
    list: async () => ok<{ list: Item[]; total: number; max: number }>(await get('list')),
    getDefault: async () => ok<Item | null>(await get('default')),
    add: async (fields: object = {}) => ok<Item>(await post('add', { ...home, ...fields })),
    setDefault: async (id: number) => ok<Item>(await post('setDefault', { id })),
    edit: async (id: number, fields: object = {}) => ok<Item>(await post('edit', { ...home, ...fields, id })),
    remove: async (id: number) => ok<{ id: number; default_id: number | null }>(await post('delete', { id })),
  };
}

async function newUser() {
  return userApi(await signIn(t.app, newAccount(), rootInviteCode));
}

/** Which of the user's addresses are the default, read from the table itself rather than the API. */
async function defaultIds(ids: number[]): Promise<number[]> {
  const rows = rowsOf<{ id: number }>(
    await t.database.db.execute(sql`select id from addresses where user_id = (select user_id from addresses where id = ${ids[0]!}) and is_default order by id`),
  );
  return rows.map((r) => r.id);
}

describe('address rules (docs/product.md section 5), translated', () => {
  const cases = [
    {
      name: 'no receiver name',
      body: { ...home, receiver_name: '  ' },
      field: 'receiver_name',
      EN: "Please enter the receiver's name",
      TW: '請輸入收貨人姓名',
    },
    { name: 'no phone', body: { ...home, phone: '' }, field: 'phone', EN: 'Please enter a phone number', TW: '請輸入手機號碼' },
    {
      name: 'an invalid phone',
      body: { ...home, phone: '0912-345' },
      field: 'phone',
      EN: 'Please enter a valid phone number for the chosen country',
      TW: '請輸入所選國家/地區的有效電話號碼',
    },
    {
      name: 'a Taiwan number with country US',
      body: { ...home, phone: '+886912345678', phone_country: 'US' },
      field: 'phone',
      EN: 'Please enter a valid phone number for the chosen country',
      TW: '請輸入所選國家/地區的有效電話號碼',
    },
    { name: 'no area', body: { ...home, area: '' }, field: 'area', EN: 'Please enter the area', TW: '請輸入所在地區' },
    { name: 'no detailed address', body: { ...home, detail: undefined }, field: 'detail', EN: 'Please enter the detailed address', TW: '請輸入詳細地址' },
  ];

  it.each(cases)('refuses $name with the field message in EN and TW, and stores nothing', async ({ body, field, EN, TW }) => {
    const user = await newUser();
    for (const [lang, text] of [
      ['EN', EN],
      ['TW', TW],
    ] as const) {
      const res = await user.post('add', body, lang);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ reason: 'BAD_REQUEST', msg: text, fields: { [field]: text } });
    }
    expect((await user.list()).total).toBe(0);
  });

  it('an edit is held to the same rules and changes nothing when refused', async () => {
    const user = await newUser();
    const added = await user.add();
    const res = await user.post('edit', { ...home, id: added.id, phone: 'call me' }, 'TW');
    expect(res.json()).toMatchObject({ reason: 'BAD_REQUEST', fields: { phone: '請輸入所選國家/地區的有效電話號碼' } });
    expect((await user.list()).list).toEqual([added]);
  });

  it('stores the phone in E.164 with its country and the texts trimmed', async () => {
    const user = await newUser();
    const added = await user.add({ receiver_name: '  Amy Chen ', phone: '(201) 555-0123', phone_country: 'us' });
    expect(added).toMatchObject({ receiver_name: 'Amy Chen', phone: '+12015550123', phone_country: 'US' });
    expect(await user.get(`detail?id=${added.id}`).then((r) => r.json().data)).toEqual(added);
  });
});

describe('exactly one default', () => {
  it('the first is the default; is_default switches it; the list shows the default first, then the newest', async () => {
    const user = await newUser();
    expect(await user.getDefault()).toBeNull();
    const first = await user.add({ receiver_name: 'First', is_default: false });
    expect(first.is_default).toBe(true);
    const second = await user.add({ receiver_name: 'Second' });
    expect(second.is_default).toBe(false);
    const third = await user.add({ receiver_name: 'Third', is_default: true });
    expect(third.is_default).toBe(true);
    expect(await defaultIds([first.id])).toEqual([third.id]);
    const listed = await user.list();
    expect(listed.list.map((a) => a.receiver_name)).toEqual(['Third', 'Second', 'First']);
    expect([listed.total, listed.max]).toEqual([3, addressesPerUserMax]);

    await user.setDefault(first.id);
    expect((await user.list()).list.map((a) => [a.receiver_name, a.is_default])).toEqual([
      ['First', true],
      ['Third', false],
      ['Second', false],
    ]);
    expect((await user.getDefault())?.id).toBe(first.id);
  });

  it('an edit with is_default false keeps the default; with true it moves the default', async () => {
    const user = await newUser();
    const a = await user.add({ receiver_name: 'A' });
    const b = await user.add({ receiver_name: 'B' });
    const edited = await user.edit(a.id, { receiver_name: 'A2', is_default: false });
    expect(edited).toMatchObject({ receiver_name: 'A2', is_default: true });
    await user.edit(b.id, { is_default: true });
    expect(await defaultIds([a.id])).toEqual([b.id]);
    // Setting the default again on the default changes nothing.
    expect((await user.setDefault(b.id)).is_default).toBe(true);
    expect(await defaultIds([a.id])).toEqual([b.id]);
  });

  it('deleting the default hands it to the newest remaining address; deleting the last leaves none', async () => {
    const user = await newUser();
    const a = await user.add({ receiver_name: 'A' });
    const b = await user.add({ receiver_name: 'B' });
    const c = await user.add({ receiver_name: 'C' });
    await user.setDefault(b.id);
    expect(await user.remove(a.id)).toEqual({ id: a.id, default_id: b.id });
    expect(await user.remove(b.id)).toEqual({ id: b.id, default_id: c.id });
    expect((await user.getDefault())?.id).toBe(c.id);
    expect(await user.remove(c.id)).toEqual({ id: c.id, default_id: null });
    expect(await user.getDefault()).toBeNull();
    expect((await user.list()).total).toBe(0);
    // The next first address is the default again.
    expect((await user.add()).is_default).toBe(true);
  });

  it('10 parallel setDefault calls leave exactly one default', async () => {
    const user = await newUser();
    const added: Item[] = [];
    for (let i = 0; i < 10; i += 1) added.push(await user.add({ receiver_name: `R${i}` }));
    const results = await Promise.all(added.map((a) => user.post('setDefault', { id: a.id })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const defaults = await defaultIds(added.map((a) => a.id));
    expect(defaults).toHaveLength(1);
    expect((await user.getDefault())?.id).toBe(defaults[0]);
  });

  it('parallel first adds make exactly one of them the default', async () => {
    const user = await newUser();
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => user.post('add', { ...home, receiver_name: `P${i}` })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(5).fill(200));
    const ids = results.map((r) => (r.json().data as Item).id);
    expect(await defaultIds(ids)).toHaveLength(1);
  });
});

describe('at most addressesPerUserMax addresses', () => {
  it(`refuses the ${addressesPerUserMax + 1}th with ADDRESS_LIMIT_REACHED naming the maximum`, async () => {
    const user = await newUser();
    for (let i = 0; i < addressesPerUserMax; i += 1) await user.add({ receiver_name: `N${i}` });
    const refused = await user.post('add', home);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ reason: 'ADDRESS_LIMIT_REACHED', params: { max: '20' }, msg: 'You can keep at most 20 addresses' });
    expect((await user.post('add', home, 'TW')).json().msg).toBe('最多只能保存 20 個地址');
    const listed = await user.list();
    expect(listed.total).toBe(addressesPerUserMax);
    expect(listed.list).toHaveLength(addressesPerUserMax);
    // Deleting one makes room again.
    await user.remove(listed.list[5]!.id);
    expect((await user.add()).receiver_name).toBe(home.receiver_name);
  });

  it('parallel adds at one below the limit: exactly one is stored', async () => {
    const user = await newUser();
    for (let i = 0; i < addressesPerUserMax - 1; i += 1) await user.add({ receiver_name: `N${i}` });
    const results = await Promise.all(Array.from({ length: 4 }, () => user.post('add', home)));
    const reasons = results.map((r) => (r.statusCode === 200 ? 'OK' : r.json().reason)).sort();
    expect(reasons).toEqual(['ADDRESS_LIMIT_REACHED', 'ADDRESS_LIMIT_REACHED', 'ADDRESS_LIMIT_REACHED', 'OK']);
    expect((await user.list()).total).toBe(addressesPerUserMax);
  });
});

describe("another user's address", () => {
  const attempts = [
    { name: 'detail', call: (b: ReturnType<typeof userApi>, id: number) => b.get(`detail?id=${id}`) },
    { name: 'edit', call: (b: ReturnType<typeof userApi>, id: number) => b.post('edit', { ...home, id, receiver_name: 'Taken', is_default: true }) },
    { name: 'delete', call: (b: ReturnType<typeof userApi>, id: number) => b.post('delete', { id }) },
    { name: 'setDefault', call: (b: ReturnType<typeof userApi>, id: number) => b.post('setDefault', { id }) },
  ];

  it.each(attempts)("$name answers NOT_FOUND, like a missing id, and A's addresses are unchanged", async ({ call }) => {
    const a = await newUser();
    const b = await newUser();
    const aDefault = await a.add({ receiver_name: 'A home' });
    const aOther = await a.add({ receiver_name: 'A office' });
    await b.add({ receiver_name: 'B home' });
    const before = await a.list();
    for (const id of [aDefault.id, aOther.id]) {
      const res = await call(b, id);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ reason: 'NOT_FOUND', data: null });
    }
    const missing = await call(b, 2 ** 31 - 1);
    expect([missing.statusCode, missing.json().reason]).toEqual([404, 'NOT_FOUND']);
    expect(await a.list()).toEqual(before);
    expect((await b.list()).list.map((x) => x.receiver_name)).toEqual(['B home']);
  });
});

describe('needs a session', () => {
  it.each([
    ['GET', 'list'],
    ['GET', 'default'],
    ['POST', 'add'],
  ] as const)('%s %s without a token answers UNAUTHORIZED', async (method, path) => {
    const res = await t.app.inject({ method, url: `${base}/${path}`, ...(method === 'POST' ? { payload: home } : {}) });
    expect([res.statusCode, res.json().reason]).toEqual([401, 'UNAUTHORIZED']);
  });
});

describe('OpenAPI', () => {
  it('documents every address route', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    const paths = Object.values(addressRoutes).map((r) => r.path);
    expect(paths).toHaveLength(7);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(paths));
  });
});
