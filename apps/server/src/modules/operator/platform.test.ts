import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { operatorAccount, operatorToken } from '../../test/devices.ts';
import { fundUser, tokens } from '../../test/money.ts';
import { systemBalance } from '../../test/pledge.ts';
import { newShopper, shopGet, shopPost, signInAgain, type Shopper } from '../../test/store.ts';
import { signIn } from '../../test/sign-in.ts';
import { auditLedger } from '../ledger/index.ts';

// The console's platform view: the dashboard, settled epochs and a settlement run on demand, the
// pools and their top-ups; each action with its audit line, each route with its least role.
let t: TestApp;
let admin: { token: string; ip: string };
let viewer: Shopper;
let operator: Shopper;
const db = () => t.database.db;

beforeAll(async () => {
  t = await createTestApp();
  admin = { token: await operatorToken(t.app), ip: '10.9.0.1' };
  viewer = await newShopper(t);
  operator = await newShopper(t);
  await db().execute(sql`insert into operator_roles (user_id, role, granted_at) values (${viewer.id}, 'viewer', now()), (${operator.id}, 'operator', now())`);
});
afterAll(async () => {
  await t?.close();
});

async function auditLines(action: string) {
  return rowsOf<{ actor_id: number; target_id: string | null; before: unknown; after: unknown; reason: string | null }>(
    await db().execute(sql`select actor_id, target_id, before, after, reason from audit_log where action = ${action} order by id`),
  );
}

describe('pools', () => {
  it('lists the pools for a viewer; an admin tops one up from the treasury with a reason and an audit line', async () => {
    const list = await shopGet(t, viewer, '/api/v1/operator/pools');
    expect(list.statusCode).toBe(200);
    const mining = list.json().data.find((p: { kind: string; asset: string }) => p.kind === 'mining_pool' && p.asset === 'NADI');
    expect(mining).toBeDefined();

    const body = { pool: 'mining_pool', asset: 'NADI', amount: '1000', reason: 'runway low' };
    expect((await shopPost(t, operator, '/api/v1/operator/pool/topup', body)).json().reason).toBe('FORBIDDEN');
    expect((await shopPost(t, admin, '/api/v1/operator/pool/topup', { ...body, reason: '' })).json().reason).toBe('REASON_REQUIRED');
    const poolBefore = await systemBalance(db(), 'mining_pool');
    const treasuryBefore = await systemBalance(db(), 'treasury');
    const res = await shopPost(t, admin, '/api/v1/operator/pool/topup', body);
    expect(res.statusCode).toBe(200);
    expect(await systemBalance(db(), 'mining_pool')).toBe(poolBefore + tokens(1000));
    expect(await systemBalance(db(), 'treasury')).toBe(treasuryBefore - tokens(1000));
    expect(res.json().data).toEqual({
      kind: 'mining_pool',
      asset: 'NADI',
      balance: mining.balance.replace(/^(\d+)/, (n: string) => String(BigInt(n) + 1000n)),
    });
    const [line] = await auditLines('pool.topup');
    expect(line).toMatchObject({
      target_id: 'mining_pool:NADI',
      reason: 'runway low',
      before: { balance: mining.balance },
      after: { balance: res.json().data.balance, amount: '1000' },
    });
    const flow = rowsOf<{ type: string; user_id: number | null }>(
      await db().execute(sql`select type, user_id from ledger_flows where id = ${(line!.after as { flow_id: number }).flow_id}`),
    );
    expect(flow).toEqual([{ type: 'data_adjustment', user_id: null }]);
    expect((await auditLedger(db())).isOk).toBe(true);
  });
});

describe('settlement', () => {
  it('an operator settles every ended epoch once (a second run settles nothing); the epochs list what each paid', async () => {
    const epochMs = t.settings.epochSeconds * 1000;
    t.clock.advance(2 * epochMs + 1_000);
    // Sessions idle that long have expired: sign in again.
    admin.token = await signIn(t.app, operatorAccount);
    await signInAgain(t, viewer);
    await signInAgain(t, operator);

    expect((await shopPost(t, viewer, '/api/v1/operator/settlement/run', {})).json().reason).toBe('FORBIDDEN');
    const first = await shopPost(t, operator, '/api/v1/operator/settlement/run', {});
    expect(first.statusCode).toBe(200);
    const settled = first.json().data.settled as { epoch: number; paid: string }[];
    expect(settled.length).toBeGreaterThan(0);
    const second = await shopPost(t, operator, '/api/v1/operator/settlement/run', {});
    expect(second.json().data).toEqual({ settled: [] });
    const lines = await auditLines('settlement.run');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ actor_id: operator.id, after: first.json().data });

    const epochs = await shopGet(t, viewer, '/api/v1/operator/settlement/epochs?page_size=50');
    expect(epochs.statusCode).toBe(200);
    const data = epochs.json().data;
    expect(data.total).toBe(settled.length);
    expect(data.list.map((e: { epoch: number }) => e.epoch)).toEqual(settled.map((s) => s.epoch).reverse());
    expect(data.list[0]).toMatchObject({ mining_paid: settled.at(-1)!.paid });
    for (const e of data.list) expect(Object.keys(e)).toEqual(expect.arrayContaining(['savings_paid', 'node_paid', 'node_paid_usdt', 'team_paid']));
  });
});

describe('dashboard', () => {
  it('shows the days, the last epochs, pools with runway, node sales, the queues and the ledger check', async () => {
    const u = await newShopper(t);
    await fundUser(db(), u.id, 'NADI', tokens(100));
    expect((await shopPost(t, u, '/api/v1/withdraw/apply', { amount: '5' }, { 'idempotency-key': 'dash-1' })).statusCode).toBe(200);
    expect((await shopGet(t, u, '/api/v1/operator/dashboard')).json().reason).toBe('FORBIDDEN');
    const res = await shopGet(t, viewer, '/api/v1/operator/dashboard?days=7');
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    expect(d.days).toHaveLength(7);
    expect(d.days.at(-1).day).toBe(t.clock.now().toISOString().slice(0, 10));
    expect(d.pending_withdrawals).toBe(1);
    expect(d.orders_to_ship).toBe(0);
    expect(d.epochs.length).toBeGreaterThan(0);
    expect(d.last_settlement).toMatchObject({ epoch: d.epochs[0].epoch });
    const mining = d.pools.find((p: { kind: string; asset: string }) => p.kind === 'mining_pool' && p.asset === 'NADI');
    expect(mining.runway_days === null || mining.runway_days > 0).toBe(true);
    expect(d.node_sales.length).toBeGreaterThan(0);
    expect(d.ledger_check.is_ok).toBe(true);
  });
});
