import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toDecimalString, units } from '@nadi/money/money';
import type { AppEvent } from '../../lib/event-bus.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { balanceOf, dumpMoneyTables } from '../../test/money.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';
import { rowsOf } from '../../db/rows.ts';
import { auditLedger, runFlow, systemAccount, transfer } from '../ledger/index.ts';

// Income and vesting answer from mining_epochs, mining_results and mining_vesting rows written here
// by hand, as settlement would write them; the NADI behind the locked income is moved from the
// mining pool to the vesting account the same way.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const one = 10n ** 18n;

async function newUser(): Promise<{ token: string; id: number }> {
  const token = await signIn(t.app, newAccount(), rootInviteCode);
  const info = await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: token } });
  return { token, id: info.json().data.id as number };
}
function get(token: string, url: string) {
  return t.app.inject({ method: 'GET', url, headers: { authorization: token, lang: 'EN' } });
}
function post(token: string, url: string, payload: unknown = {}, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url, payload: payload as object, headers: { authorization: token, lang: 'EN', ...headers } });
}

interface Result {
  epoch: number;
  devicePower?: bigint;
  destroyPower?: bigint;
  otherPower?: bigint;
  deviceIncome?: bigint;
  destroyIncome?: bigint;
  powerIncome?: bigint;
  reduction?: bigint;
  released?: bigint;
}

/** A settled epoch (inputs frozen at its end) unless it exists. */
async function settledEpoch(epoch: number) {
  const starts = new Date(Date.parse('2026-11-22T08:00:00.000Z') + epoch * 600_000);
  await t.database.db.execute(sql`
    insert into mining_epochs (epoch, starts_at, ends_at, emission, payable, network_power, price, paid, released, reduction, users, settled_at, computed_at)
    values (${epoch}, ${starts}, ${new Date(starts.getTime() + 600_000)}, ${(100_000n * one).toString()}::numeric, ${(100_000n * one).toString()}::numeric,
            ${40_000 + epoch}, ${units('0.5').toString()}::numeric, 0, 0, 0, 1, ${new Date(starts.getTime() + 601_000)}, ${new Date(starts.getTime() + 601_000)})
    on conflict (epoch) do nothing`);
}

/** One user's income of an epoch: immediate 25 % (rounded down), the rest locked, as settlement splits it. */
async function result(userId: number, r: Result): Promise<{ total: bigint; immediate: bigint; locked: bigint }> {
  await settledEpoch(r.epoch);
  const total = (r.deviceIncome ?? 0n) + (r.destroyIncome ?? 0n) + (r.powerIncome ?? 0n);
  const immediate = (total * 2_500n) / 10_000n;
  const locked = total - immediate;
  const v = (x: bigint | undefined) => (x ?? 0n).toString();
  await t.database.db.execute(sql`
    insert into mining_results (epoch, user_id, device_power, destroy_power, other_power, device_income, destroy_income, power_income, reduction, immediate, locked, released)
    values (${r.epoch}, ${userId}, ${v(r.devicePower)}::bigint, ${v(r.destroyPower)}::bigint, ${v(r.otherPower)}::bigint, ${v(r.deviceIncome)}::numeric,
            ${v(r.destroyIncome)}::numeric, ${v(r.powerIncome)}::numeric, ${v(r.reduction)}::numeric, ${immediate.toString()}::numeric,
            ${locked.toString()}::numeric, ${v(r.released)}::numeric)`);
  return { total, immediate, locked };
}

/** The user's vesting row and the NADI behind it in the vesting account, as settlement leaves them. */
async function vesting(userId: number, v: { locked: bigint; claimable: bigint; epoch: number }) {
  // The vesting account holds what mining_vesting owes (the audit checks it): move only the change.
  const before = rowsOf<{ owed: string }>(
    await t.database.db.execute(sql`select (locked + claimable)::text as owed from mining_vesting where user_id = ${userId}`),
  )[0];
  const change = v.locked + v.claimable - BigInt(before?.owed ?? '0');
  await t.database.db.execute(sql`
    insert into mining_vesting (user_id, locked, claimable, claimed, rate, updated_epoch)
    values (${userId}, ${v.locked.toString()}::numeric, ${v.claimable.toString()}::numeric, 0, 0, ${v.epoch})
    on conflict (user_id) do update set locked = excluded.locked, claimable = excluded.claimable, updated_epoch = excluded.updated_epoch`);
  if (change === 0n) return;
  const [pool, vestingAccount] = [systemAccount('mining_pool', 'NADI'), systemAccount('vesting', 'NADI')];
  await runFlow(t.database.db, {
    idempotencyKey: `test-vesting:${randomUUID()}`,
    userId: null,
    type: 'power_income',
    params: { userId, change: change.toString() },
    legs: [change > 0n ? transfer('power_income', pool, vestingAccount, change) : transfer('power_income', vestingAccount, pool, -change)],
    result: () => null,
  });
}

/** Release of tranche `locked` at its k-th epoch, written out: 180 equal slices, the last one with the remainder. */
function release(locked: bigint, k: number, epochs = 180): bigint {
  if (k < 1 || k > epochs) return 0n;
  const slice = locked / BigInt(epochs);
  return k < epochs ? slice : locked - slice * BigInt(epochs - 1);
}

let u: { token: string; id: number };
const tranches: { epoch: number; locked: bigint }[] = [];
let releasedTotal = 0n;

describe('income and vesting', () => {
  beforeAll(async () => {
    u = await newUser();
    const e0 = await result(u.id, { epoch: 0, otherPower: 1000n, powerIncome: 2_500n * one + 7n });
    const e1 = await result(u.id, {
      epoch: 1,
      devicePower: 5500n,
      destroyPower: 10_000n,
      otherPower: 1000n,
      deviceIncome: 13_000n * one + 11n,
      destroyIncome: 20_000n * one,
      powerIncome: 2_400n * one,
      reduction: 1_234n * one,
      released: release(e0.locked, 1),
    });
    const e2 = await result(u.id, {
      epoch: 2,
      devicePower: 5500n,
      deviceIncome: 14_000n * one + 179n,
      released: release(e0.locked, 2) + release(e1.locked, 1),
    });
    tranches.push({ epoch: 0, locked: e0.locked }, { epoch: 1, locked: e1.locked }, { epoch: 2, locked: e2.locked });
    releasedTotal = release(e0.locked, 1) + release(e0.locked, 2) + release(e1.locked, 1);
    await vesting(u.id, { locked: e0.locked + e1.locked + e2.locked - releasedTotal, claimable: releasedTotal, epoch: 2 });
    // Someone else's epoch 1: never in u's answers.
    await result((await newUser()).id, { epoch: 1, otherPower: 1000n, powerIncome: 99n * one });
  });

  it('lists settled epochs newest first with their non-zero lines, parts and formula inputs', async () => {
    const res = await get(u.token, '/api/v1/mining/income');
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ total: 3, page: 1, page_size: 10 });
    expect(data.list.map((i: { epoch: number }) => i.epoch)).toEqual([2, 1, 0]);
    const e1 = data.list[1];
    const total = 13_000n * one + 11n + 20_000n * one + 2_400n * one;
    expect(e1).toEqual({
      epoch: 1,
      settled_at: '2026-11-22T08:20:01.000Z',
      lines: [
        { type: 'device_income', amount: toDecimalString(13_000n * one + 11n) },
        { type: 'destroy_profit', amount: '20000' },
        { type: 'power_income', amount: '2400' },
        { type: 'income_reduction', amount: '1234' },
      ],
      total: toDecimalString(total),
      immediate: toDecimalString(total / 4n),
      locked: toDecimalString(total - total / 4n),
      released: toDecimalString(release(tranches[0]!.locked, 1)),
      inputs: {
        power: '165.00',
        device_power: '55.00',
        destroy_power: '100.00',
        other_power: '10.00',
        network_power: '400.01',
        emission: '100000',
        payable: '100000',
        price: '0.5',
        immediate_bps: 2500,
        vesting_epochs: 180,
      },
    });
    expect(data.list[0].lines).toEqual([{ type: 'device_income', amount: toDecimalString(14_000n * one + 179n) }]);
    expect(data.list[2].lines).toEqual([{ type: 'power_income', amount: toDecimalString(2_500n * one + 7n) }]);
  });

  it('filters epochs by a line they have, pages, and shows one epoch in detail', async () => {
    const byType = async (type: string) => (await get(u.token, `/api/v1/mining/income?type=${type}`)).json().data.list.map((i: { epoch: number }) => i.epoch);
    expect(await byType('device_income')).toEqual([2, 1]);
    expect(await byType('income_reduction')).toEqual([1]);
    expect(await byType('power_income')).toEqual([1, 0]);
    expect(await byType('destroy_profit')).toEqual([1]);
    const page = (await get(u.token, '/api/v1/mining/income?page=2&page_size=2')).json().data;
    expect(page).toMatchObject({ total: 3, page: 2, page_size: 2 });
    expect(page.list.map((i: { epoch: number }) => i.epoch)).toEqual([0]);
    const list = (await get(u.token, '/api/v1/mining/income')).json().data.list;
    const detail = await get(u.token, '/api/v1/mining/incomeDetail?epoch=1');
    expect(detail.json().data).toEqual(list[1]);
    const missing = await get(u.token, '/api/v1/mining/incomeDetail?epoch=5');
    expect(missing.json().reason).toBe('NOT_FOUND');
    for (const bad of ['epoch=-1', 'epoch=1e3', 'epoch=', 'epoch=0x1']) expect((await get(u.token, `/api/v1/mining/incomeDetail?${bad}`)).statusCode).toBe(400);
    expect((await get(u.token, '/api/v1/mining/income?type=share_income')).statusCode).toBe(400);
  });

  it("answers another user's epochs as not found", async () => {
    const other = await newUser();
    expect((await get(other.token, '/api/v1/mining/income')).json().data).toMatchObject({ total: 0, list: [] });
    expect((await get(other.token, '/api/v1/mining/incomeDetail?epoch=1')).json().reason).toBe('NOT_FOUND');
  });

  it('shows locked, claimable and the exact release schedule of the next epochs, summing to what is locked', async () => {
    const data = (await get(u.token, '/api/v1/mining/vesting')).json().data;
    const locked = tranches.reduce((s, x) => s + x.locked, 0n) - releasedTotal;
    expect(data).toMatchObject({ locked: toDecimalString(locked), claimable: toDecimalString(releasedTotal), claimed: '0' });
    expect(data.schedule).toHaveLength(180);
    expect(data.schedule[0].epoch).toBe(3);
    expect(data.schedule.at(-1).epoch).toBe(182);
    for (const { epoch, amount } of data.schedule as { epoch: number; amount: string }[]) {
      const expected = tranches.reduce((s, x) => s + release(x.locked, epoch - x.epoch), 0n);
      expect(amount, `epoch ${epoch}`).toBe(toDecimalString(expected));
    }
    expect(data.schedule.reduce((s: bigint, x: { amount: string }) => s + units(x.amount), 0n)).toBe(locked);
    const overview = (await get(u.token, '/api/v1/mining/overview')).json().data;
    expect(overview).toMatchObject({
      locked: data.locked,
      claimable: data.claimable,
      last_settled_epoch: 2,
      income_total: toDecimalString(
        tranches.reduce((s, x) => s + x.locked, 0n) + (2_500n * one + 7n) / 4n + (35_400n * one + 11n) / 4n + (14_000n * one + 179n) / 4n,
      ),
    });
  });

  it('claims everything released into the fund account once; then there is nothing to claim', async () => {
    const events: AppEvent[] = [];
    const unsubscribe = t.app.deps.events.subscribe((e) => events.push(e));
    const fundBefore = (await balanceOf(t.database.db, u.id, 'fund', 'NADI')).available;
    const res = await post(u.token, '/api/v1/mining/claim');
    unsubscribe();
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ amount: toDecimalString(releasedTotal), balance: toDecimalString(fundBefore + releasedTotal) });
    expect(events).toContainEqual({ type: 'balance', userIds: [u.id] });
    const row = rowsOf<{ claimable: string; claimed: string }>(
      await t.database.db.execute(sql`select claimable::text, claimed::text from mining_vesting where user_id = ${u.id}`),
    );
    expect(row).toEqual([{ claimable: '0', claimed: releasedTotal.toString() }]);
    const journal = rowsOf<{ type: string; amount: string }>(
      await t.database.db.execute(sql`
        select t.type, t.amount::text from ledger_transfers t join ledger_accounts a on a.id = t.credit_account_id
         where a.user_id = ${u.id} and a.kind = 'fund' and t.type = 'locked_income_release'`),
    );
    expect(journal).toEqual([{ type: 'locked_income_release', amount: releasedTotal.toString() }]);

    const before = await dumpMoneyTables(t.database.db);
    const again = await post(u.token, '/api/v1/mining/claim');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ reason: 'NOTHING_TO_CLAIM', msg: 'There is nothing to claim yet.' });
    expect(await dumpMoneyTables(t.database.db)).toBe(before);
    expect((await get(u.token, '/api/v1/mining/vesting')).json().data).toMatchObject({ claimable: '0', claimed: toDecimalString(releasedTotal) });
    expect((await auditLedger(t.database.db)).isOk).toBe(true);
  });

  it('pays once when claims run in parallel, and answers a repeated Idempotency-Key with the first result', async () => {
    const w = await newUser();
    await result(w.id, { epoch: 0, otherPower: 1000n, powerIncome: 800n * one });
    await vesting(w.id, { locked: 500n * one, claimable: 100n * one, epoch: 2 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(w.token, '/api/v1/mining/claim')));
    expect(answers.filter((a) => a.statusCode === 200).map((a) => a.json().data)).toEqual([{ amount: '100', balance: '100' }]);
    expect(answers.filter((a) => a.statusCode !== 200).map((a) => a.json().reason)).toEqual(Array(5).fill('NOTHING_TO_CLAIM'));
    expect((await balanceOf(t.database.db, w.id, 'fund', 'NADI')).available).toBe(100n * one);

    await vesting(w.id, { locked: 400n * one, claimable: 100n * one, epoch: 3 });
    const headers = { 'idempotency-key': 'claim-1' };
    const keyed = await Promise.all(Array.from({ length: 4 }, () => post(w.token, '/api/v1/mining/claim', {}, headers)));
    for (const a of keyed) expect(a.json().data).toEqual({ amount: '100', balance: '200' });
    expect((await post(w.token, '/api/v1/mining/claim', {}, headers)).json().data).toEqual({ amount: '100', balance: '200' });
    expect((await balanceOf(t.database.db, w.id, 'fund', 'NADI')).available).toBe(200n * one);
    expect((await post(w.token, '/api/v1/mining/claim', { amount: '5' })).statusCode).toBe(400);
    expect((await auditLedger(t.database.db)).isOk).toBe(true);
  });

  it('releases a tranche over the vesting period in force at its epoch (an operator change is not retroactive)', async () => {
    const x = await newUser();
    await t.database.db.execute(sql`insert into economy_params (name, effective_epoch, value) values ('vestingEpochs', 2, '90')`);
    const e1 = await result(x.id, { epoch: 1, otherPower: 1000n, powerIncome: 1_000n * one + 1n });
    const e2 = await result(x.id, { epoch: 2, otherPower: 1000n, powerIncome: 3_000n * one + 3n, released: release(e1.locked, 1) });
    await vesting(x.id, { locked: e1.locked + e2.locked - release(e1.locked, 1), claimable: release(e1.locked, 1), epoch: 2 });
    const data = (await get(x.token, '/api/v1/mining/vesting')).json().data;
    // Epoch 1's tranche (180 epochs) releases until epoch 181, epoch 2's (90 epochs) until 92.
    expect(data.schedule).toHaveLength(179);
    expect(data.schedule.at(-1)).toEqual({ epoch: 181, amount: toDecimalString(release(e1.locked, 180)) });
    expect(data.schedule[0]).toEqual({ epoch: 3, amount: toDecimalString(release(e1.locked, 2) + release(e2.locked, 1, 90)) });
    expect(data.schedule[89]).toEqual({ epoch: 92, amount: toDecimalString(release(e1.locked, 91) + release(e2.locked, 90, 90)) });
    expect(data.schedule[90]).toEqual({ epoch: 93, amount: toDecimalString(release(e1.locked, 92)) });
    expect(data.schedule.reduce((s: bigint, y: { amount: string }) => s + units(y.amount), 0n)).toBe(units(data.locked));
    const list = (await get(x.token, '/api/v1/mining/income')).json().data.list;
    expect(list.map((i: { epoch: number; inputs: { vesting_epochs: number } }) => [i.epoch, i.inputs.vesting_epochs])).toEqual([
      [2, 90],
      [1, 180],
    ]);
  });
});
