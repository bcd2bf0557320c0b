import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';
import { addPerformance, readPerformance } from './performance.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** Signs up a new user under `inviteCode` and answers its id and invite code. */
async function member(inviteCode: string): Promise<{ id: number; code: string }> {
  const account = newAccount();
  await signIn(t.app, account, inviteCode);
  const rows = rowsOf<{ id: number; invite_code: string }>(
    await t.database.db.execute(sql`select id, invite_code from users where address = ${account.address.toLowerCase()}`),
  );
  return { id: rows[0]!.id, code: rows[0]!.invite_code };
}

describe('purchase performance', () => {
  it("adds a purchase to the buyer's own figure and to every ancestor's team figure, once per source", async () => {
    const top = await member(rootInviteCode);
    const middle = await member(top.code);
    const buyer = await member(middle.code);
    const before = await readPerformance(t.database.db, top.id);
    const at = new Date();
    const added = await t.database.db.transaction((tx) => addPerformance(tx, { userId: buyer.id, kind: 'device', ref: `test:${buyer.id}:1`, usdt: 250n, at }));
    const again = await t.database.db.transaction((tx) => addPerformance(tx, { userId: buyer.id, kind: 'device', ref: `test:${buyer.id}:1`, usdt: 250n, at }));
    expect([added, again]).toEqual([true, false]);
    expect(await readPerformance(t.database.db, buyer.id)).toEqual({ mePerformance: 250n, teamPerformance: 0n });
    expect(await readPerformance(t.database.db, middle.id)).toEqual({ mePerformance: 0n, teamPerformance: 250n });
    expect(await readPerformance(t.database.db, top.id)).toEqual({ mePerformance: 0n, teamPerformance: before.teamPerformance + 250n });
  });

  it('a reversal takes the purchase back out, and nothing can go below zero', async () => {
    const top = await member(rootInviteCode);
    const buyer = await member(top.code);
    const at = new Date();
    await t.database.db.transaction((tx) => addPerformance(tx, { userId: buyer.id, kind: 'device', ref: `test:${buyer.id}:buy`, usdt: 100n, at }));
    await t.database.db.transaction((tx) => addPerformance(tx, { userId: buyer.id, kind: 'device', ref: `test:${buyer.id}:buy:refund`, usdt: -100n, at }));
    expect(await readPerformance(t.database.db, buyer.id)).toEqual({ mePerformance: 0n, teamPerformance: 0n });
    expect(await readPerformance(t.database.db, top.id)).toEqual({ mePerformance: 0n, teamPerformance: 0n });
    await expect(
      t.database.db.transaction((tx) => addPerformance(tx, { userId: buyer.id, kind: 'device', ref: `test:${buyer.id}:over`, usdt: -1n, at })),
    ).rejects.toThrow();
    // A reversal for someone who never bought anything fails too, and records nothing.
    const stranger = await member(top.code);
    await expect(
      t.database.db.transaction((tx) => addPerformance(tx, { userId: stranger.id, kind: 'node', ref: `test:${stranger.id}:none`, usdt: -5n, at })),
    ).rejects.toThrow('who has none');
    const events = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`select count(*)::int as n from performance_events where user_id in (${buyer.id}, ${stranger.id})`),
    );
    expect(events[0]?.n).toBe(2);
  });
});
