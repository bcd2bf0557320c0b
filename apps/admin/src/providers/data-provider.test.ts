import { economyRoutes } from '@nadi/api/mining';
import { onchainRoutes } from '@nadi/api/onchain';
import { operatorRoutes } from '@nadi/api/operator';
import type { Route } from '@nadi/api/route';
import { storeRoutes } from '@nadi/api/store';
import { describe, expect, it } from 'vitest';
import { callRoute, type Fetch } from '../lib/api.ts';
import { canCall, hasRole } from '../lib/roles.ts';
import { actions, createDataProvider, resources } from './data-provider.ts';

/** A fetch that records what it was asked and answers with the given envelope. */
function recorder(answer: unknown, status = 200) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetchImpl: Fetch = async (url, init) => {
    calls.push({ url, init });
    return new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } });
  };
  const call = ((route: Route, input?: unknown) => callRoute(route, input, { token: 'tok', fetchImpl, envelope: null })) as typeof callRoute;
  return { calls, provider: createDataProvider(call) };
}

describe('the data provider', () => {
  it('maps each resource to its contract route, with paging and filters as the query', async () => {
    const { calls, provider } = recorder({ code: 200, msg: 'ok', data: { list: [{ id: 7 }], total: 31, page: 2, page_size: 20 } });
    const result = await provider.getList({
      resource: 'withdrawals',
      pagination: { currentPage: 2, pageSize: 20 },
      filters: [
        { field: 'status', operator: 'eq', value: 0 },
        { field: 'not_a_query_key', operator: 'eq', value: 'x' },
      ],
    });
    expect(result).toEqual({ data: [{ id: 7 }], total: 31 });
    expect(calls[0]?.url).toBe('/api/v1/operator/withdraw/list?page=2&page_size=20&status=0');
    expect(calls[0]?.init.method).toBe('GET');
    const headers = calls[0]?.init.headers as Record<string, string>;
    expect(headers.authorization).toBe('tok');
    expect(headers.lang).toBe('EN');

    await provider.getList({ resource: 'orders', filters: [{ field: 'status', operator: 'eq', value: 'to_ship' }] });
    expect(calls[1]?.url).toBe('/api/v1/operator/store/orders?page=1&page_size=10&status=to_ship');
    await provider.getList({ resource: 'products', pagination: { currentPage: 1, pageSize: 50 } });
    expect(calls[2]?.url).toBe('/api/v1/operator/store/products?page=1&page_size=50');
  });

  it('uses the route objects themselves (path and method are never restated)', () => {
    expect(resources.withdrawals.list).toBe(onchainRoutes.operatorWithdrawList);
    expect(resources.orders.list).toBe(storeRoutes.operatorOrders);
    expect(resources.products.create).toBe(storeRoutes.operatorSaveProduct);
    expect(resources['economy-params'].list).toBe(economyRoutes.operatorParams);
    for (const route of [...Object.values(resources).map((r) => r.list), ...Object.values(actions)]) {
      expect(route.path.startsWith('/api/v1/operator/')).toBe(true);
      expect(route.role).toBeDefined();
    }
  });

  it('turns the economy parameters into rows: in force now and scheduled', async () => {
    const { calls, provider } = recorder({
      code: 200,
      msg: 'ok',
      data: {
        epoch: 12,
        in_force: [{ name: 'storeMarginBps', value: '2000', effective_epoch: 1 }],
        scheduled: [{ name: 'storeMarginBps', value: '2500', effective_epoch: 14 }],
      },
    });
    const { data, total } = await provider.getList({ resource: 'economy-params', pagination: { currentPage: 1, pageSize: 10 } });
    expect(calls[0]?.url).toBe('/api/v1/operator/economy/params');
    expect(total).toBe(2);
    expect(data.map((r) => [r.id, r.state, r.value])).toEqual([
      ['storeMarginBps@now', 'in_force', '2000'],
      ['storeMarginBps@14', 'scheduled', '2500'],
    ]);
  });

  it('searches users by q and keys the role holders by user id', async () => {
    const users = recorder({ code: 200, msg: 'ok', data: { list: [{ id: 4 }], total: 1, page: 1, page_size: 10 } });
    await users.provider.getList({ resource: 'users', filters: [{ field: 'q', operator: 'eq', value: '0xf39f' }] });
    expect(users.calls[0]?.url).toBe('/api/v1/operator/users?page=1&page_size=10&q=0xf39f');
    await users.provider.getList({ resource: 'users', filters: [{ field: 'q', operator: 'eq', value: undefined }] });
    expect(users.calls[1]?.url).toBe('/api/v1/operator/users?page=1&page_size=10');

    const holder = { user_id: 2, address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', role: 'viewer', is_configured: false, granted_by: 1, granted_at: null };
    const roles = recorder({ code: 200, msg: 'ok', data: [holder] });
    const { data, total } = await roles.provider.getList({ resource: 'roles', pagination: { mode: 'off' } });
    expect(roles.calls[0]?.url).toBe('/api/v1/operator/roles');
    expect(total).toBe(1);
    expect(data).toEqual([{ ...holder, id: 2 }]);
  });

  it('posts actions to the route named in meta, and surfaces the server message on refusal', async () => {
    const ok = recorder({ code: 200, msg: 'ok', data: { id: 3 } });
    await ok.provider.custom?.({
      url: actions.rejectWithdrawal.path,
      method: 'post',
      payload: { id: 3, reason: 'wrong address' },
      meta: { route: actions.rejectWithdrawal },
    });
    expect(ok.calls[0]?.url).toBe('/api/v1/operator/withdraw/reject');
    expect(ok.calls[0]?.init.method).toBe('POST');
    expect(JSON.parse(String(ok.calls[0]?.init.body))).toEqual({ id: 3, reason: 'wrong address' });

    const refused = recorder({ code: 403, msg: 'You may not do this.', data: null, reason: 'FORBIDDEN' }, 403);
    await expect(refused.provider.custom?.({ url: '', method: 'post', payload: { id: 3 }, meta: { route: actions.approveWithdrawal } })).rejects.toMatchObject({
      message: 'You may not do this.',
      reason: 'FORBIDDEN',
      statusCode: 403,
    });
  });
});

describe('the economy resources', () => {
  it('reads tiers and savings products from their {list} answers, pools keyed by kind and asset, epochs paged', async () => {
    const tiers = recorder({ code: 200, msg: 'ok', data: { list: [{ id: 1, name: 'T1' }] } });
    expect(await tiers.provider.getList({ resource: 'node-tiers' })).toEqual({ data: [{ id: 1, name: 'T1' }], total: 1 });
    expect(tiers.calls[0]?.url).toBe('/api/v1/operator/node/tiers');
    const savings = recorder({ code: 200, msg: 'ok', data: { list: [{ id: 2 }, { id: 3 }] } });
    expect((await savings.provider.getList({ resource: 'savings-products' })).total).toBe(2);
    expect(savings.calls[0]?.url).toBe('/api/v1/operator/pledge/products');
    const pools = recorder({ code: 200, msg: 'ok', data: [{ kind: 'mining_pool', asset: 'NADI', balance: '5' }] });
    expect((await pools.provider.getList({ resource: 'pools' })).data).toEqual([{ id: 'mining_pool:NADI', kind: 'mining_pool', asset: 'NADI', balance: '5' }]);
    const epochs = recorder({ code: 200, msg: 'ok', data: { list: [{ epoch: 3 }], total: 1, page: 1, page_size: 10 } });
    await epochs.provider.getList({ resource: 'settlement-epochs', pagination: { currentPage: 1, pageSize: 10 } });
    expect(epochs.calls[0]?.url).toBe('/api/v1/operator/settlement/epochs?page=1&page_size=10');
  });
});

describe('role gating', () => {
  it('orders the roles viewer < operator < admin', () => {
    expect(hasRole('admin', 'viewer')).toBe(true);
    expect(hasRole('operator', 'operator')).toBe(true);
    expect(hasRole('operator', 'admin')).toBe(false);
    expect(hasRole(null, 'viewer')).toBe(false);
  });

  it("offers an action only to roles at or above the route's own role", () => {
    const table: [string, Route, boolean, boolean, boolean][] = [
      ['read withdrawals', onchainRoutes.operatorWithdrawList, true, true, true],
      ['approve a withdrawal', actions.approveWithdrawal, false, true, true],
      ['ship an order', actions.ship, false, true, true],
      ['refund an order', actions.refund, false, true, true],
      ['save a product', actions.saveProduct, false, false, true],
      ['change stock', actions.stock, false, false, true],
      ['change an economy parameter', actions.setParam, false, false, true],
      ['save a node tier', actions.saveTier, false, false, true],
      ['save a savings product', actions.saveSavingsProduct, false, false, true],
      ['top a pool up', actions.poolTopup, false, false, true],
      ['run the settlement', actions.runSettlement, false, true, true],
      ['read my role', operatorRoutes.me, true, true, true],
      ['read users', resources.users.list, true, true, true],
      ['read role holders', resources.roles.list, true, true, true],
      ['freeze an account', actions.freeze, false, true, true],
      ['unfreeze an account', actions.unfreeze, false, true, true],
      ['revoke a session', actions.revokeSession, false, true, true],
      ['revoke every session of a user', actions.revokeUserSessions, false, true, true],
      ['grant, change or remove a role', actions.setRole, false, false, true],
    ];
    for (const [what, route, viewer, operator, admin] of table) {
      expect([what, canCall('viewer', route), canCall('operator', route), canCall('admin', route)]).toEqual([what, viewer, operator, admin]);
      expect(canCall(null, route)).toBe(false);
    }
  });
});
