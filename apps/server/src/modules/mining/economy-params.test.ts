// Operators change the economy numbers from a later epoch on: the value in force follows the epoch,
// a change for the current or a past epoch and a value out of range are refused with nothing stored,
// and only operators may do either.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { setEconomyParamApproved } from '../../test/operator.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';
import { paramsAt } from './params.ts';

const operatorAccount = newAccount();
const userAccount = newAccount();
let t: TestApp;
let operator: string;
let user: string;
const epochMs = 600_000;

beforeAll(async () => {
  t = await createTestApp({ OPERATOR_ADDRESSES: operatorAccount.address });
  operator = await signIn(t.app, operatorAccount, rootInviteCode);
  user = await signIn(t.app, userAccount, rootInviteCode);
});
afterAll(async () => {
  await t.close();
});

// Four-eyes: each change is requested and approved by a second admin (test/operator.ts).
const set = (token: string, payload: unknown, lang = 'EN') => setEconomyParamApproved(t.app, token, payload as Record<string, unknown>, lang);
const list = (token: string) => t.app.inject({ method: 'GET', url: '/api/v1/operator/economy/params', headers: { authorization: token } });
const stored = async () => rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from economy_params`))[0]?.n;

describe('economy parameters', () => {
  it('puts a change in force from its epoch on, never before', async () => {
    const now = (await list(operator)).json().data;
    const epoch = now.epoch as number;
    expect(now.in_force).toContainEqual({ name: 'immediateBps', value: '2500', effective_epoch: 0 });
    expect(now.in_force).toContainEqual({ name: 'nodeDividendBps', value: '5000', effective_epoch: 0 });
    expect(now.scheduled).toEqual([]);

    const res = await set(operator, { name: 'immediateBps', value: '3000', effective_epoch: epoch + 2 });
    expect(res.statusCode).toBe(200);
    expect((await list(operator)).json().data.scheduled).toEqual([{ name: 'immediateBps', value: '3000', effective_epoch: epoch + 2 }]);
    expect((await paramsAt(t.database.db, t.settings, epoch + 1)).immediateBps).toBe(2500n);
    expect((await paramsAt(t.database.db, t.settings, epoch + 2)).immediateBps).toBe(3000n);

    // Two epochs later the change is in force, and the overview shows it to users (sessions idle
    // that long have expired: sign in again).
    t.clock.advance(2 * epochMs);
    operator = await signIn(t.app, operatorAccount, rootInviteCode);
    user = await signIn(t.app, userAccount, rootInviteCode);
    const later = (await list(operator)).json().data;
    expect(later.in_force).toContainEqual({ name: 'immediateBps', value: '3000', effective_epoch: epoch + 2 });
    expect(later.scheduled).toEqual([]);
    const overview = await t.app.inject({ method: 'GET', url: '/api/v1/mining/overview', headers: { authorization: user } });
    expect(overview.json().data.params.immediate_bps).toBe(3000);
  });

  it('refuses the current or a past epoch, values out of range and malformed input, storing nothing', async () => {
    const epoch = (await list(operator)).json().data.epoch as number;
    const before = await stored();
    const retro = await set(operator, { name: 'vestingEpochs', value: '90', effective_epoch: epoch });
    expect(retro.json()).toMatchObject({ reason: 'PARAM_RETROACTIVE', msg: `A change takes effect from a later epoch than the current one (${epoch})` });
    const tw = await set(operator, { name: 'immediateBps', value: '10001', effective_epoch: epoch + 1 }, 'TW');
    expect(tw.json()).toMatchObject({ reason: 'PARAM_OUT_OF_RANGE', msg: '數值超出此參數的允許範圍（0 至 10000）', params: { min: '0', max: '10000' } });
    expect((await set(operator, { name: 'vestingEpochs', value: '0', effective_epoch: epoch + 1 })).json().reason).toBe('PARAM_OUT_OF_RANGE');
    expect((await set(operator, { name: 'nodeDividendBps', value: '10001', effective_epoch: epoch + 1 })).json().reason).toBe('PARAM_OUT_OF_RANGE');
    for (const payload of [
      { name: 'epochSeconds', value: '60', effective_epoch: epoch + 1 },
      { name: 'immediateBps', value: '-1', effective_epoch: epoch + 1 },
      { name: 'immediateBps', value: '1e3', effective_epoch: epoch + 1 },
      { name: 'immediateBps', value: '0x10', effective_epoch: epoch + 1 },
      { name: 'immediateBps', value: 2500, effective_epoch: epoch + 1 },
      { name: 'immediateBps', value: '2500', effective_epoch: 1.5 },
      { name: 'immediateBps', value: '2500' },
    ]) {
      expect((await set(operator, payload)).json().reason).toBe('BAD_REQUEST');
    }
    expect(await stored()).toBe(before);
  });

  it('is for operators only', async () => {
    const before = await stored();
    expect((await list(user)).statusCode).toBe(403);
    expect((await set(user, { name: 'immediateBps', value: '100', effective_epoch: 10_000 })).statusCode).toBe(403);
    expect(await stored()).toBe(before);
  });
});
