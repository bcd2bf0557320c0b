// The role matrix over every operator route of the contract: each route found by walking every route
// group of packages/api (a route added later is covered without touching this file), called with no
// session, as a plain user, a viewer, an operator and an admin, is refused (401 / 403 FORBIDDEN)
// exactly when the caller's role is below the route's. The role each route names is checked against
// the allocation below, so a route cannot quietly ask for less.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorRoles, type OperatorRole } from '@nadi/api/route';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';
import { loadContractRoutes } from '../../test/contract-routes.ts';

// Every route of the contract, loaded before the tests are collected (top-level await).
const contractRoutesByKey = await loadContractRoutes();
const contractRoutes = () => [...contractRoutesByKey.values()];

/** The allocation: viewers read, operators run the daily work, admins change the rules. */
const expectedRoles: Record<string, OperatorRole> = {
  'GET /api/v1/operator/me': 'viewer',
  'GET /api/v1/operator/roles': 'viewer',
  'POST /api/v1/operator/role': 'admin',
  'GET /api/v1/operator/audit': 'viewer',
  'GET /api/v1/operator/audit/export': 'viewer',
  'GET /api/v1/operator/approvals': 'viewer',
  'POST /api/v1/operator/approval/approve': 'operator',
  'POST /api/v1/operator/approval/reject': 'operator',
  'GET /api/v1/operator/withdraw/list': 'viewer',
  'POST /api/v1/operator/withdraw/approve': 'operator',
  'POST /api/v1/operator/withdraw/reject': 'operator',
  'GET /api/v1/operator/store/products': 'viewer',
  'POST /api/v1/operator/store/product': 'admin',
  'POST /api/v1/operator/store/stock': 'admin',
  'GET /api/v1/operator/store/orders': 'viewer',
  'POST /api/v1/operator/store/ship': 'operator',
  'POST /api/v1/operator/store/refund': 'operator',
  'GET /api/v1/operator/device/models': 'viewer',
  'POST /api/v1/operator/device/model': 'admin',
  'POST /api/v1/operator/device/register': 'operator',
  'POST /api/v1/operator/activation/batch': 'operator',
  'POST /api/v1/operator/activation/revoke': 'operator',
  'GET /api/v1/operator/activation/batches': 'viewer',
  'GET /api/v1/operator/economy/params': 'viewer',
  'POST /api/v1/operator/economy/param': 'admin',
  'POST /api/v1/operator/node/tier': 'admin',
  'GET /api/v1/operator/node/tiers': 'viewer',
  'GET /api/v1/operator/pledge/products': 'viewer',
  'POST /api/v1/operator/pledge/product': 'admin',
  'POST /api/v1/operator/notice/publish': 'operator',
  'GET /api/v1/operator/notices': 'viewer',
  'POST /api/v1/operator/notice/save': 'operator',
  'POST /api/v1/operator/notice/withdraw': 'operator',
  'GET /api/v1/operator/devices': 'viewer',
  'GET /api/v1/operator/users': 'viewer',
  'GET /api/v1/operator/user': 'viewer',
  'POST /api/v1/operator/user/freeze': 'operator',
  'POST /api/v1/operator/user/unfreeze': 'operator',
  'POST /api/v1/operator/session/revoke': 'operator',
  'POST /api/v1/operator/user/sessions/revoke': 'operator',
  'GET /api/v1/operator/dashboard': 'viewer',
  'GET /api/v1/operator/settlement/epochs': 'viewer',
  'POST /api/v1/operator/settlement/run': 'operator',
  'GET /api/v1/operator/pools': 'viewer',
  'POST /api/v1/operator/pool/topup': 'admin',
  'POST /api/v1/operator/transparency/snapshot': 'operator',
  'POST /api/v1/operator/transparency/publish': 'operator',
  'POST /api/v1/operator/transparency/reserve': 'admin',
};

let t: TestApp;
const tokens: Partial<Record<'user' | OperatorRole, string>> = {};

beforeAll(async () => {
  const admin = newAccount();
  t = await createTestApp({ OPERATOR_ADDRESSES: admin.address });
  tokens.admin = await signIn(t.app, admin, rootInviteCode);
  for (const who of ['user', 'viewer', 'operator'] as const) {
    const account = newAccount();
    tokens[who] = await signIn(t.app, account, rootInviteCode);
    if (who === 'user') continue;
    await t.database.db.execute(sql`
      insert into operator_roles (user_id, role, granted_at) select id, ${who}, now() from users where address = ${account.address.toLowerCase()}`);
  }
});
afterAll(async () => {
  await t?.close();
});

const routes = contractRoutes();
const roleRoutes = routes.filter((r) => r.role);

describe('the role matrix', () => {
  it('finds the contract’s routes, and every operator path names the role of the allocation', () => {
    expect(routes.length).toBeGreaterThan(50);
    for (const r of routes) if (r.path.startsWith('/api/v1/operator/')) expect(r.role, r.path).toBeDefined();
    const named = Object.fromEntries(roleRoutes.map((r) => [`${r.method} ${r.path}`, r.role]));
    expect(named).toEqual(expectedRoles);
  });

  it.each(roleRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s refuses exactly the callers below its role', async (_name, r) => {
    const callers = [undefined, 'user', ...operatorRoles] as const;
    for (const who of callers) {
      const headers = who ? { authorization: tokens[who] as string } : {};
      const res = await t.app.inject({ method: r.method, url: r.path, headers, ...(r.method === 'POST' ? { payload: {} } : {}) });
      const least = operatorRoles.indexOf(r.role!);
      const has = who !== undefined && who !== 'user' && operatorRoles.indexOf(who) >= least;
      if (who === undefined) expect(res.statusCode, `${r.path} without a session`).toBe(401);
      else if (!has) expect([res.statusCode, res.json().reason], `${r.path} as ${who}`).toEqual([403, 'FORBIDDEN']);
      else expect([401, 403], `${r.path} as ${who}: ${res.body}`).not.toContain(res.statusCode);
    }
  });
});
