import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { operatorToken } from '../../test/devices.ts';
import { balanceOf, fundUser, tokens, unfreezeFunds, freezeFunds } from '../../test/money.ts';
import { tierOf } from '../../test/node.ts';
import { seededProduct } from '../../test/pledge.ts';
import { newShopper, productOf, shopGet, shopPost, signInAgain, type Shopper } from '../../test/store.ts';
import { runFlow } from '../ledger/index.ts';

// The console's users: freezing (and the table of money routes a frozen account is refused), the
// lookup, one user's picture, and revoking sessions; every action with its audit line.
let t: TestApp;
let admin: { token: string; ip: string };
const db = () => t.database.db;

beforeAll(async () => {
  t = await createTestApp({
    // Creating a chain payment order needs the gateway and token addresses only.
    PAYMENT_GATEWAY_ADDRESS: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    NADI_ADDRESS: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
    USDT_ADDRESS: '0x9fE46736679d2D9a65F0992F10d36d9c39d8bA31',
  });
  admin = { token: await operatorToken(t.app), ip: '10.9.0.1' };
});
afterAll(async () => {
  await t?.close();
});

async function auditLines(action: string, targetId: string | number) {
  return rowsOf<{ actor_id: number; before: unknown; after: unknown; reason: string | null }>(
    await db().execute(sql`select actor_id, before, after, reason from audit_log where action = ${action} and target_id = ${String(targetId)} order by id`),
  );
}

const freeze = (who: Shopper, reason = 'suspected fraud') => shopPost(t, admin, '/api/v1/operator/user/freeze', { user_id: who.id, reason });
const unfreeze = (who: Shopper, reason = 'cleared') => shopPost(t, admin, '/api/v1/operator/user/unfreeze', { user_id: who.id, reason });

/** Everything a money route may write: "unchanged" means this text is identical. */
async function moneyState(): Promise<string> {
  const tables = [
    'ledger_accounts',
    'ledger_flows',
    'ledger_transfers',
    'withdrawals',
    'store_orders',
    'user_nodes',
    'node_orders',
    'payment_orders',
    'destroy_orders',
    'market_orders',
    'pledge_positions',
    'miners',
  ];
  const parts: string[] = [];
  for (const table of tables) {
    const rows = rowsOf<Record<string, unknown>>(await db().execute(sql.raw(`select * from ${table} order by 1`)));
    parts.push(`${table}:${JSON.stringify(rows)}`);
  }
  return parts.join('\n');
}

describe('freezing an account', () => {
  it('needs a reason and the operator role; writes before and after to the audit trail', async () => {
    const u = await newShopper(t);
    const blank = await shopPost(t, admin, '/api/v1/operator/user/freeze', { user_id: u.id, reason: '  ' });
    expect(blank.json().reason).toBe('REASON_REQUIRED');
    const missing = await shopPost(t, admin, '/api/v1/operator/user/freeze', { user_id: u.id });
    expect(missing.json().reason).toBe('REASON_REQUIRED');
    const other = await newShopper(t);
    expect((await shopPost(t, other, '/api/v1/operator/user/freeze', { user_id: u.id, reason: 'x' })).statusCode).toBe(403);
    await db().execute(sql`insert into operator_roles (user_id, role, granted_at) values (${other.id}, 'viewer', now())`);
    expect((await shopPost(t, other, '/api/v1/operator/user/freeze', { user_id: u.id, reason: 'x' })).json().reason).toBe('FORBIDDEN');
    expect((await shopPost(t, admin, '/api/v1/operator/user/freeze', { user_id: 999_999, reason: 'x' })).json().reason).toBe('NOT_FOUND');

    const res = await freeze(u);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ user_id: u.id, frozen_at: t.clock.now().toISOString(), frozen_reason: 'suspected fraud' });
    const lifted = await unfreeze(u);
    expect(lifted.json().data).toEqual({ user_id: u.id, frozen_at: null, frozen_reason: null });
    const [frozeLine] = await auditLines('user.freeze', u.id);
    expect(frozeLine).toMatchObject({
      reason: 'suspected fraud',
      before: { user_id: u.id, frozen_at: null, frozen_reason: null },
      after: { user_id: u.id, frozen_at: t.clock.now().toISOString(), frozen_reason: 'suspected fraud' },
    });
    const [unfrozeLine] = await auditLines('user.unfreeze', u.id);
    expect(unfrozeLine).toMatchObject({ reason: 'cleared', after: { frozen_at: null } });
  });

  it('a frozen user signs in and reads, receives credits and releases, but no money route moves their money; unfreezing restores', async () => {
    const u = await newShopper(t);
    await fundUser(db(), u.id, 'NADI', tokens(100_000));
    await fundUser(db(), u.id, 'USDT', tokens(10_000));
    await runFlow(db(), {
      idempotencyKey: `test-trade:${randomUUID()}`,
      userId: u.id,
      type: 'data_adjustment',
      params: { u: u.id },
      legs: [
        {
          type: 'data_adjustment',
          debit: { userId: null, kind: 'treasury', asset: 'NADI' },
          credit: { userId: u.id, kind: 'trade', asset: 'NADI' },
          amount: tokens(100),
        },
      ],
      result: () => null,
    });
    const hold = await freezeFunds(db(), `test-hold:${randomUUID()}`, { userId: u.id, kind: 'fund', asset: 'NADI', amount: tokens(10), reason: 'test' });
    const box = await productOf(db(), 'NADI-BOX-1');
    const tier = await tierOf(db(), 1);
    const flexible = await seededProduct(db(), 'flexible');
    const key = () => ({ 'idempotency-key': randomUUID() });
    const cases: [string, () => ReturnType<typeof shopPost>][] = [
      ['transfer', () => shopPost(t, u, '/api/v1/wallet/transfer', { asset: 'NADI', from: 'fund', to: 'trade', amount: '1' })],
      [
        'exchange confirm',
        async () => {
          const quote = (await shopPost(t, u, '/api/v1/wallet/exchange/quote', { from_asset: 'NADI', to_asset: 'USDT', amount: '10' })).json().data;
          return shopPost(t, u, '/api/v1/wallet/exchange/confirm', { quote_id: quote.quote_id, amount: '10' });
        },
      ],
      ['withdraw apply', () => shopPost(t, u, '/api/v1/withdraw/apply', { amount: '5' }, key())],
      ['destroy', () => shopPost(t, u, '/api/v1/mining/destroy', { amount: '100', price: '0.5' }, key())],
      ['destroy by chain', () => shopPost(t, u, '/api/v1/mining/destroy/order', { amount: '100', price: '0.5' })],
      ['savings join', () => shopPost(t, u, '/api/v1/financial/join', { product_id: flexible, amount: '1000' }, key())],
      ['node by balance', () => shopPost(t, u, '/api/v1/node/buy', { tier_id: tier.id, pay_method: 'balance', price: '0.5' }, key())],
      ['node by chain', () => shopPost(t, u, '/api/v1/node/buy', { tier_id: tier.id, pay_method: 'chain', pay_asset: 'USDT' }, key())],
      [
        'store order by balance',
        () =>
          shopPost(
            t,
            u,
            '/api/v1/machine/order',
            { items: [{ product_id: box.id, quantity: 1 }], pay_method: 'balance', pay_asset: 'USDT', address_id: u.addressId },
            key(),
          ),
      ],
      [
        'store order by chain',
        () =>
          shopPost(
            t,
            u,
            '/api/v1/machine/order',
            { items: [{ product_id: box.id, quantity: 1 }], pay_method: 'chain', pay_asset: 'USDT', address_id: u.addressId },
            key(),
          ),
      ],
      ['trade order', () => shopPost(t, u, '/api/v1/trade/order', { symbol: 'NADI-USDT', side: 'sell', type: 'limit', price: '100', quantity: '1' })],
    ];

    expect((await freeze(u)).statusCode).toBe(200);
    const before = await moneyState();
    for (const [name, call] of cases) {
      const res = await call();
      expect({ name, status: res.statusCode, reason: res.json().reason }).toEqual({ name, status: 403, reason: 'ACCOUNT_FROZEN' });
    }
    expect(await moneyState()).toBe(before);

    // Reads still work; credits arrive; a hold set aside before the freeze can still be released.
    expect((await shopGet(t, u, '/api/v1/wallet/assets')).statusCode).toBe(200);
    expect((await shopGet(t, u, '/api/v1/user/info')).statusCode).toBe(200);
    await fundUser(db(), u.id, 'NADI', tokens(1));
    await unfreezeFunds(db(), `test-release:${hold.flowId}`, { userId: u.id, kind: 'fund', asset: 'NADI', amount: tokens(10), reason: 'test' });
    expect(await balanceOf(db(), u.id, 'fund', 'NADI')).toEqual({ available: tokens(100_001), frozen: 0n });

    expect((await unfreeze(u)).statusCode).toBe(200);
    for (const [name, call] of cases) {
      const res = await call();
      expect({ name, status: res.statusCode, body: res.statusCode === 200 ? null : res.body }).toEqual({ name, status: 200, body: null });
    }
  });
});

describe('users in the console', () => {
  it('finds users by id, invite code or address for a viewer; nobody without a role', async () => {
    const u = await newShopper(t);
    await newShopper(t);
    const address = u.account.address.toLowerCase();
    for (const q of [String(u.id), u.inviteCode.toLowerCase(), address.slice(0, 12), address.toUpperCase().replace('0X', '0x')]) {
      const res = await shopGet(t, admin, `/api/v1/operator/users?q=${encodeURIComponent(q)}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.list.map((r: { id: number }) => r.id)).toContain(u.id);
    }
    const all = (await shopGet(t, admin, '/api/v1/operator/users?page_size=2')).json().data;
    expect(all.list).toHaveLength(2);
    expect(all.total).toBeGreaterThan(2);
    expect((await shopGet(t, u, '/api/v1/operator/users')).json().reason).toBe('FORBIDDEN');
  });

  it('shows one user: profile, freeze, role, balances, ledger lines, team and live sessions', async () => {
    const parent = await newShopper(t);
    const u = await newShopper(t, parent.inviteCode);
    await fundUser(db(), u.id, 'NADI', tokens(12));
    await shopPost(t, u, '/api/v1/wallet/transfer', { asset: 'NADI', from: 'fund', to: 'trade', amount: '2' });
    await freeze(u, 'checking');
    const res = await shopGet(t, admin, `/api/v1/operator/user?id=${u.id}`);
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    expect(d.user).toMatchObject({ id: u.id, address: u.account.address.toLowerCase(), referrer_id: parent.id, frozen_reason: 'checking', role: null });
    expect(d.balances).toEqual(
      expect.arrayContaining([
        { kind: 'fund', asset: 'NADI', available: '10', frozen: '0' },
        { kind: 'trade', asset: 'NADI', available: '2', frozen: '0' },
      ]),
    );
    // Newest first, signed from the user's side: the transfer's two lines (debit first), then the credit.
    expect(d.ledger.slice(0, 3).map((l: { kind: string; amount: string }) => [l.kind, l.amount])).toEqual([
      ['fund', '-2'],
      ['trade', '2'],
      ['fund', '12'],
    ]);
    expect(d.team.referrers[0]).toEqual({ id: parent.id, address: parent.account.address.toLowerCase(), depth: 1 });
    const up = (await shopGet(t, admin, `/api/v1/operator/user?id=${parent.id}`)).json().data;
    expect(up.team.directs).toEqual([{ id: u.id, address: u.account.address.toLowerCase(), frozen_at: expect.any(String), created_at: expect.any(String) }]);
    expect(d.sessions).toHaveLength(1);
    expect((await shopGet(t, admin, '/api/v1/operator/user?id=999999')).json().reason).toBe('NOT_FOUND');
    await unfreeze(u);
  });

  it('revokes one session or all of a user, with audit lines; a viewer may not', async () => {
    const u = await newShopper(t);
    const viewer = await newShopper(t);
    await db().execute(sql`insert into operator_roles (user_id, role, granted_at) values (${viewer.id}, 'viewer', now())`);
    const sessions = (await shopGet(t, admin, `/api/v1/operator/user?id=${u.id}`)).json().data.sessions as { id: number }[];
    expect((await shopPost(t, viewer, '/api/v1/operator/session/revoke', { session_id: sessions[0]!.id })).json().reason).toBe('FORBIDDEN');

    const one = await shopPost(t, admin, '/api/v1/operator/session/revoke', { session_id: sessions[0]!.id });
    expect(one.json().data).toEqual({ revoked: 1 });
    expect((await shopGet(t, u, '/api/v1/user/info')).statusCode).toBe(401);
    expect((await shopPost(t, admin, '/api/v1/operator/session/revoke', { session_id: sessions[0]!.id })).json().reason).toBe('NOT_FOUND');
    expect(await auditLines('session.revoke', sessions[0]!.id)).toHaveLength(1);

    const again = await signInAgainAs(u);
    expect(again).toBe(200);
    const all = await shopPost(t, admin, '/api/v1/operator/user/sessions/revoke', { user_id: u.id });
    expect(all.json().data).toEqual({ revoked: 1 });
    expect((await shopGet(t, u, '/api/v1/user/info')).statusCode).toBe(401);
    const [line] = await auditLines('user.sessions.revoke', u.id);
    expect(line).toMatchObject({ after: { live: [] } });
  });
});

async function signInAgainAs(u: Shopper): Promise<number> {
  await signInAgain(t, u);
  return (await shopGet(t, u, '/api/v1/user/info')).statusCode;
}
