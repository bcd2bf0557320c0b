import { sql } from 'drizzle-orm';
import { units } from '@nadi/money/money';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';
import { addPerformance } from '../team/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

interface Member {
  id: number;
  code: string;
  info: () => Promise<Record<string, unknown>>;
}

/** Signs up a user under `inviteCode`; `info` reads its /user/info as the app does. */
async function member(inviteCode: string): Promise<Member> {
  const token = await signIn(t.app, newAccount(), inviteCode);
  const info = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: token } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Record<string, unknown>;
  };
  const first = await info();
  return { id: first.id as number, code: first.code as string, info };
}

describe('user info performance (docs/product.md section 3)', () => {
  it('a new user has none', async () => {
    const user = await member(rootInviteCode);
    expect(await user.info()).toMatchObject({ me_performance: '0', team_performance: '0', zhi_num: 0, team_num: 0 });
  });

  it("shows the user's own purchases as me_performance and those below as team_performance, in USDT", async () => {
    const top = await member(rootInviteCode);
    const middle = await member(top.code);
    const buyer = await member(middle.code);
    const at = t.clock.now();
    await t.database.db.transaction(async (tx) => {
      await addPerformance(tx, { userId: buyer.id, kind: 'device', ref: `user-test:${buyer.id}:1`, usdt: units('1250.5'), at });
      await addPerformance(tx, { userId: middle.id, kind: 'node', ref: `user-test:${middle.id}:1`, usdt: units('0.000000000000000001'), at });
    });
    expect(await buyer.info()).toMatchObject({ me_performance: '1250.5', team_performance: '0' });
    expect(await middle.info()).toMatchObject({ me_performance: '0.000000000000000001', team_performance: '1250.5', zhi_num: 1, team_num: 1 });
    expect(await top.info()).toMatchObject({ me_performance: '0', team_performance: '1250.500000000000000001', zhi_num: 1, team_num: 2 });
  });
});

describe('node level (the "high-level agent" badge)', () => {
  it('is null without a node, then the highest tier level the user holds', async () => {
    const user = await member(rootInviteCode);
    expect((await user.info()).node_level).toBeNull();
    const hold = async (level: number) => {
      await t.database.db.execute(sql`
        insert into user_nodes (user_id, tier_id, pay_method, pay_asset, pay_amount)
        select ${user.id}, id, 'balance', 'NADI', 1 from node_tiers where level_id = ${level}`);
    };
    await hold(3);
    expect((await user.info()).node_level).toBe(3);
    await hold(1);
    expect((await user.info()).node_level).toBe(3);
    await hold(4);
    expect((await user.info()).node_level).toBe(4);
  });
});

describe('user info level', () => {
  it('is the team level V0–V5 of the figures now (team/info the same), not a stored column', async () => {
    const top = await member(rootInviteCode);
    const direct = await member(top.code);
    expect((await top.info()).level).toBe(0);
    const at = t.clock.now();
    await t.database.db.transaction((tx) =>
      addPerformance(tx, { userId: direct.id, kind: 'device', ref: `user-test:${direct.id}:level`, usdt: units('999.999'), at }),
    );
    // 999.999 USDT is short of V1's 1,000.
    expect((await top.info()).level).toBe(0);
    await t.database.db.transaction((tx) =>
      addPerformance(tx, { userId: direct.id, kind: 'node', ref: `user-test:${direct.id}:level2`, usdt: units('0.001'), at }),
    );
    // 1,000 USDT below and one direct who bought: V1; the direct itself has no team.
    expect(await top.info()).toMatchObject({ level: 1, team_performance: '1000', zhi_num: 1, team_num: 1 });
    expect((await direct.info()).level).toBe(0);
  });
});
