import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { runFlow, systemAccount, transfer, userAccount } from '../ledger/index.ts';
import { balanceOf, tokens } from '../../test/money.ts';
import {
  accrueInterest,
  join,
  newSaver,
  pledgeGet,
  pledgePost,
  productTotal,
  savingsSnapshot,
  seededProduct,
  systemBalance,
  type Saver,
} from '../../test/pledge.ts';
import { rowsOf } from '../../db/rows.ts';
import { auditLedger } from '../ledger/index.ts';

let t: TestApp;
const epochMs = () => t.settings.epochSeconds * 1000;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function joined(u: Saver, kind: string, amount: string, term = 0): Promise<number> {
  const res = await join(t, u, await seededProduct(t.database.db, kind, term), amount);
  if (res.statusCode !== 200) throw new Error(`join failed: ${res.body}`);
  return res.json().data.position.id as number;
}

const redeem = (u: Saver, id: unknown) => pledgePost(t, u, '/api/v1/financial/redeem', { id });

async function flowCount(): Promise<number> {
  return Number(rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from ledger_flows`))[0]?.n);
}

describe('records and release records', () => {
  it('lists my positions newest first, by status and page; release records show locked ones waiting, then redeemed', async () => {
    const u = await newSaver(t);
    const flexible = await joined(u, 'flexible', '100');
    const locked = await joined(u, 'locked', '500', 90);
    const all = (await pledgeGet(t, u, '/api/v1/financial/records')).json().data;
    expect(all).toMatchObject({ total: 2, page: 1, page_size: 10 });
    expect(all.list.map((p: { id: number }) => p.id)).toEqual([locked, flexible]);
    expect(all.list[0]).toMatchObject({ kind: 'locked', amount: '500', day_rate: '0.08', power: '5.00', start_epoch: 1, end_epoch: 90 });
    const second = (await pledgeGet(t, u, '/api/v1/financial/records?page=2&page_size=1')).json().data;
    expect(second.list.map((p: { id: number }) => p.id)).toEqual([flexible]);

    // Only the locked position has a release to wait for; the flexible one appears once redeemed.
    const releaseAt = new Date(t.clock.now().getTime() + 91 * epochMs()).toISOString();
    const waiting = (await pledgeGet(t, u, '/api/v1/financial/releases')).json().data;
    expect(waiting).toMatchObject({ total: 1 });
    expect(waiting.list).toEqual([
      {
        position_id: locked,
        name: 'Locked savings 90 days',
        kind: 'locked',
        term_epochs: 90,
        release_amount: '500',
        release_time: releaseAt,
        release_rate: '100',
        buy_time: t.clock.now().toISOString(),
        status: 'waiting',
      },
    ]);
    t.clock.advance(60_000);
    expect((await redeem(u, flexible)).statusCode).toBe(200);
    // The settlement releases the locked one at the end of its last epoch (stood in for here, with its
    // principal back to the fund account, so the audit's pledged = active principal still holds).
    await t.database.db.execute(sql`update pledge_positions set status = 'redeemed', redeemed_at = ${new Date(releaseAt)} where id = ${locked}`);
    const principal = rowsOf<{ amount: string }>(await t.database.db.execute(sql`select amount::text as amount from pledge_positions where id = ${locked}`));
    await runFlow(t.database.db, {
      idempotencyKey: `test:release:${locked}`,
      userId: u.id,
      type: 'release_pledge_income',
      params: { position: locked },
      legs: [transfer('release_pledge_income', systemAccount('pledged', 'NADI'), userAccount(u.id, 'fund', 'NADI'), BigInt(principal[0]!.amount))],
      result: () => null,
    });
    const released = (await pledgeGet(t, u, '/api/v1/financial/releases')).json().data.list;
    expect(released.map((r: Record<string, unknown>) => [r.position_id, r.status, r.release_time])).toEqual([
      [locked, 'redeemed', releaseAt],
      [flexible, 'redeemed', t.clock.now().toISOString()],
    ]);
    const active = (await pledgeGet(t, u, '/api/v1/financial/records?status=active')).json().data;
    expect(active).toMatchObject({ total: 0, list: [] });
    const redeemed = (await pledgeGet(t, u, '/api/v1/financial/records?status=redeemed')).json().data;
    expect(redeemed.total).toBe(2);
  });
});

describe('redeeming', () => {
  it('returns a flexible principal to the fund account, shrinks the pool and takes the power away (power log withdraw)', async () => {
    const u = await newSaver(t, 1_000);
    const id = await joined(u, 'flexible', '400');
    const product = await seededProduct(t.database.db, 'flexible');
    const [pledged, total] = [await systemBalance(t.database.db, 'pledged'), await productTotal(t.database.db, product)];

    const res = await redeem(u, id);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      position: expect.objectContaining({ id, status: 'redeemed', amount: '400', redeemed_at: t.clock.now().toISOString() }),
      balance: '1000',
    });
    expect(await balanceOf(t.database.db, u.id, 'fund', 'NADI')).toEqual({ available: tokens(1000), frozen: 0n });
    expect(pledged - (await systemBalance(t.database.db, 'pledged'))).toBe(tokens(400));
    expect(total - (await productTotal(t.database.db, product))).toBe(tokens(400));
    const miner = rowsOf<{ status: number }>(
      await t.database.db.execute(sql`select m.status from miners m join pledge_positions x on x.miner_id = m.id where x.id = ${id}`),
    );
    expect(miner).toEqual([{ status: 2 }]);
    const log = (await pledgeGet(t, u, '/api/v1/mining/powerLog')).json().data.list;
    expect(log.slice(0, 2)).toMatchObject([
      { type: 'withdraw', before: '14.00', after: '10.00', change: '-4.00' },
      { type: 'pledge', before: '10.00', after: '14.00' },
    ]);
    const journal = rowsOf<{ type: string }>(
      await t.database.db.execute(sql`select t.type from ledger_transfers t join pledge_positions x on x.release_flow_id = t.flow_id where x.id = ${id}`),
    );
    expect(journal).toEqual([{ type: 'redeem_savings' }]);
    expect((await auditLedger(t.database.db)).isOk).toBe(true);
  });

  it('redeems once however often it is asked, also in parallel: a second redeem answers the redeemed position', async () => {
    const u = await newSaver(t, 3_000);
    const first = await joined(u, 'flexible', '300');
    await joined(u, 'flexible', '200');
    const done = await redeem(u, first);
    const flows = await flowCount();
    const again = await redeem(u, first);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(done.json().data);
    expect(await flowCount()).toBe(flows);

    const parallelId = await joined(u, 'joint', '1000');
    const before = await balanceOf(t.database.db, u.id, 'fund', 'NADI');
    const results = await Promise.all(Array.from({ length: 10 }, () => redeem(u, parallelId)));
    expect(results.map((r) => r.statusCode)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(new Set(results.map((r) => r.json().data.balance))).toEqual(new Set([(before.available / tokens(1) + 1000n).toString()]));
    expect((await balanceOf(t.database.db, u.id, 'fund', 'NADI')).available - before.available).toBe(tokens(1000));
    const withdraws = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`select count(*)::int as n from power_log where user_id = ${u.id} and type = 'withdraw'`),
    );
    expect(withdraws).toEqual([{ n: 2 }]);
    expect((await auditLedger(t.database.db)).isOk).toBe(true);
  });

  it('refuses a locked position (the settlement releases it) and an unknown id, changing nothing', async () => {
    const u = await newSaver(t);
    const locked = await joined(u, 'locked', '500', 30);
    const before = await savingsSnapshot(t.database.db);
    const refused = await redeem(u, locked);
    expect([refused.statusCode, refused.json().reason]).toEqual([400, 'PLEDGE_NOT_REDEEMABLE']);
    const missing = await redeem(u, 999_999);
    expect([missing.statusCode, missing.json().reason]).toEqual([404, 'NOT_FOUND']);
    for (const id of [0, -1, '1e0', null]) expect((await redeem(u, id)).json().reason).toBe('BAD_REQUEST');
    expect(await savingsSnapshot(t.database.db)).toBe(before);
  });
});

describe('another user', () => {
  it('cannot read, redeem or claim my savings through any endpoint', async () => {
    const a = await newSaver(t);
    const b = await newSaver(t);
    const flexible = await joined(a, 'flexible', '100');
    const locked = await joined(a, 'locked', '500', 30);
    await accrueInterest(t.database.db, { userId: a.id, positionId: flexible, epoch: 1, amount: tokens(3) });
    const before = await savingsSnapshot(t.database.db);
    const productId = await seededProduct(t.database.db, 'flexible');

    // Every savings endpoint, called by B with A's ids where it takes one.
    const table: [string, () => ReturnType<typeof pledgeGet>, (body: { reason?: string; data: unknown }) => void][] = [
      ['list', () => pledgeGet(t, b, '/api/v1/financial/list'), (r) => expect(r.data).toMatchObject({ list: expect.any(Array) })],
      ['detail', () => pledgeGet(t, b, `/api/v1/financial/detail?id=${productId}`), (r) => expect(r.data).toMatchObject({ can_join: true })],
      ['records', () => pledgeGet(t, b, '/api/v1/financial/records'), (r) => expect(r.data).toMatchObject({ total: 0, list: [] })],
      ['records?status', () => pledgeGet(t, b, '/api/v1/financial/records?status=active'), (r) => expect(r.data).toMatchObject({ total: 0 })],
      ['releases', () => pledgeGet(t, b, '/api/v1/financial/releases'), (r) => expect(r.data).toMatchObject({ total: 0, list: [] })],
      ['redeem flexible', () => redeem(b, flexible), (r) => expect(r.reason).toBe('NOT_FOUND')],
      ['redeem locked', () => redeem(b, locked), (r) => expect(r.reason).toBe('NOT_FOUND')],
      [
        'receiveInfo',
        () => pledgeGet(t, b, '/api/v1/financial/receiveInfo'),
        (r) => expect(r.data).toMatchObject({ claimable: '0', claimed_total: '0', lines: [] }),
      ],
      ['receive', () => pledgePost(t, b, '/api/v1/financial/receive', {}), (r) => expect(r.reason).toBe('NOTHING_TO_CLAIM')],
    ];
    for (const [name, call, check] of table) {
      const res = await call();
      expect(res.statusCode, name).toBe(name.startsWith('redeem') ? 404 : name === 'receive' ? 400 : 200);
      check(res.json());
    }
    expect(await savingsSnapshot(t.database.db)).toBe(before);
    // B reusing A's Idempotency-Key joins for B: keys are scoped to their user, never A's join replayed.
    const key = 'shared-key-1';
    const mine = (await join(t, a, productId, '100', key)).json().data.position.id;
    const theirs = await join(t, b, productId, '100', key);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().data.position.id).not.toBe(mine);
    // Signed out, every personal endpoint is refused.
    for (const [method, url, payload] of [
      ['POST', '/api/v1/financial/join', { product_id: productId, amount: '100' }],
      ['GET', '/api/v1/financial/records', null],
      ['GET', '/api/v1/financial/releases', null],
      ['POST', '/api/v1/financial/redeem', { id: flexible }],
      ['GET', '/api/v1/financial/receiveInfo', null],
      ['POST', '/api/v1/financial/receive', {}],
    ] as const) {
      const res = await t.app.inject({ method, url, ...(payload ? { payload } : {}) });
      expect([res.statusCode, res.json().reason], url).toEqual([401, 'UNAUTHORIZED']);
    }
  });
});
