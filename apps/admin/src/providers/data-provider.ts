import { deviceRoutes, economyRoutes } from '@nadi/api/mining';
import { noticeRoutes } from '@nadi/api/notice';
import { onchainRoutes } from '@nadi/api/onchain';
import { operatorRoutes } from '@nadi/api/operator';
import { operatorUserRoutes } from '@nadi/api/operator-users';
import { nodeRoutes } from '@nadi/api/node';
import { pledgeRoutes } from '@nadi/api/pledge';
import type { Route } from '@nadi/api/route';
import { storeRoutes } from '@nadi/api/store';
import type { BaseRecord, CrudFilter, DataProvider, Pagination } from '@refinedev/core';
import { callRoute } from '../lib/api.ts';

type Row = BaseRecord & Record<string, unknown>;

/** How one Refine resource maps onto the contract's routes. */
export interface ResourceRoutes {
  list: Route;
  /** Query keys the list route takes from Refine's `eq` filters. */
  filters?: readonly string[];
  /** Whether the list route pages (page, page_size) or answers everything at once. */
  isPaged?: boolean;
  /** Turns the route's data into rows; paged lists ({list, total}) need none. */
  toRows?: (data: unknown) => Row[];
  create?: Route;
  update?: Route;
}

/** An economy parameter as a row: in force now, or scheduled for a later epoch. */
function economyRows(data: unknown): Row[] {
  const d = data as { epoch: number; in_force: Row[]; scheduled: Row[] };
  return [
    ...d.in_force.map((p) => ({ ...p, id: `${String(p.name)}@now`, state: 'in_force', epoch: d.epoch })),
    ...d.scheduled.map((p) => ({ ...p, id: `${String(p.name)}@${String(p.effective_epoch)}`, state: 'scheduled', epoch: d.epoch })),
  ];
}

/** A console role holder as a row, keyed by the user's id (each user holds one role at most). */
function roleRows(data: unknown): Row[] {
  return (data as Row[]).map((r) => ({ ...r, id: r.user_id as number }));
}

/** The rows of a `{list}` answer that is not paged (tiers, savings products). */
function listRows(data: unknown): Row[] {
  return (data as { list: Row[] }).list;
}

/** A pool as a row, keyed by its kind and asset. */
function poolRows(data: unknown): Row[] {
  return (data as Row[]).map((p) => ({ ...p, id: `${String(p.kind)}:${String(p.asset)}` }));
}

export const resources = {
  withdrawals: { list: onchainRoutes.operatorWithdrawList, filters: ['status'], isPaged: true },
  orders: { list: storeRoutes.operatorOrders, filters: ['status'], isPaged: true },
  products: { list: storeRoutes.operatorProducts, isPaged: true, create: storeRoutes.operatorSaveProduct, update: storeRoutes.operatorSaveProduct },
  'economy-params': { list: economyRoutes.operatorParams, toRows: economyRows },
  audit: { list: operatorRoutes.audit, filters: ['actor', 'action', 'target_type', 'target_id', 'from', 'to'], isPaged: true },
  approvals: { list: operatorRoutes.approvals, filters: ['status'], isPaged: true },
  // Users and roles (screens/users.tsx, user-detail.tsx, roles.tsx).
  users: { list: operatorUserRoutes.users, filters: ['q'], isPaged: true },
  roles: { list: operatorRoutes.roles, toRows: roleRows },
  devices: { list: deviceRoutes.operatorDevices, filters: ['model', 'status', 'code'], isPaged: true },
  'device-models': { list: deviceRoutes.operatorModels, toRows: (data) => data as Row[], create: deviceRoutes.operatorSaveModel },
  'activation-batches': { list: deviceRoutes.operatorCodeBatches, isPaged: true },
  notices: { list: noticeRoutes.operatorList, filters: ['status'], isPaged: true },
  // Economy: node tiers, savings products, pools and settlement.
  'node-tiers': { list: nodeRoutes.operatorTiers, toRows: listRows },
  'savings-products': { list: pledgeRoutes.operatorProducts, toRows: listRows },
  pools: { list: operatorUserRoutes.pools, toRows: poolRows },
  'settlement-epochs': { list: operatorUserRoutes.epochs, isPaged: true },
} satisfies Record<string, ResourceRoutes>;
export type ResourceName = keyof typeof resources;

/** The action routes of each screen, for its buttons (and for hiding them below the route's role). */
export const actions = {
  approveWithdrawal: onchainRoutes.operatorWithdrawApprove,
  rejectWithdrawal: onchainRoutes.operatorWithdrawReject,
  ship: storeRoutes.operatorShip,
  refund: storeRoutes.operatorRefund,
  saveProduct: storeRoutes.operatorSaveProduct,
  stock: storeRoutes.operatorStock,
  setParam: economyRoutes.operatorSetParam,
  approve: operatorRoutes.approve,
  rejectApproval: operatorRoutes.rejectApproval,
  // Users and roles.
  freeze: operatorUserRoutes.freeze,
  unfreeze: operatorUserRoutes.unfreeze,
  revokeSession: operatorUserRoutes.revokeSession,
  revokeUserSessions: operatorUserRoutes.revokeUserSessions,
  setRole: operatorRoutes.setRole,
  saveDeviceModel: deviceRoutes.operatorSaveModel,
  registerDevices: deviceRoutes.operatorRegister,
  generateCodes: deviceRoutes.operatorCodeBatch,
  revokeCode: deviceRoutes.operatorRevokeCode,
  saveNotice: noticeRoutes.operatorSave,
  publishNotice: noticeRoutes.operatorPublish,
  withdrawNotice: noticeRoutes.operatorWithdraw,
  // Economy: node tiers, savings products, pools and settlement.
  saveTier: nodeRoutes.operatorSaveTier,
  saveSavingsProduct: pledgeRoutes.operatorSaveProduct,
  poolTopup: operatorUserRoutes.poolTopup,
  runSettlement: operatorUserRoutes.runSettlement,
} satisfies Record<string, Route>;

function resourceOf(name: string, table: Record<string, ResourceRoutes>): ResourceRoutes {
  const r = table[name];
  if (!r) throw new Error(`The console has no resource "${name}".`);
  return r;
}

/** Refine's pagination and `eq` filters as the list route's query (page, page_size, status…). */
export function listQuery(r: ResourceRoutes, pagination: Pagination | undefined, filters: CrudFilter[] | undefined): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  if (r.isPaged && pagination?.mode !== 'off') {
    query.page = pagination?.currentPage ?? 1;
    query.page_size = pagination?.pageSize ?? 10;
  }
  for (const filter of filters ?? []) {
    if ('field' in filter && filter.operator === 'eq' && r.filters?.includes(filter.field)) {
      if (filter.value !== undefined && filter.value !== null && filter.value !== '') query[filter.field] = filter.value;
    }
  }
  return query;
}

/**
 * The console's data provider: each resource's list (and create/update where the contract has
 * one) is a contract route object, so the path and method are the contract's, never restated.
 * `custom` calls any route given in `meta.route` (the screens' actions: approve, ship, refund…).
 */
export function createDataProvider(call: typeof callRoute = callRoute, table: Record<string, ResourceRoutes> = resources): DataProvider {
  const notOffered = (what: string, resource: string) => Promise.reject(new Error(`The console cannot ${what} ${resource}.`));
  return {
    getApiUrl: () => '/api/v1',
    getList: async ({ resource, pagination, filters }) => {
      const r = resourceOf(resource, table);
      const data = await call(r.list, listQuery(r, pagination, filters));
      if (r.toRows) {
        const rows = r.toRows(data);
        return { data: rows as never[], total: rows.length };
      }
      const page = data as { list: Row[]; total: number };
      return { data: page.list as never[], total: page.total };
    },
    getOne: ({ resource }) => notOffered('read one of', resource),
    create: async ({ resource, variables }) => {
      const r = resourceOf(resource, table);
      if (!r.create) return notOffered('create', resource);
      return { data: (await call(r.create, variables)) as never };
    },
    update: async ({ resource, id, variables }) => {
      const r = resourceOf(resource, table);
      if (!r.update) return notOffered('update', resource);
      return { data: (await call(r.update, { ...(variables as object), id })) as never };
    },
    deleteOne: ({ resource }) => notOffered('delete', resource),
    custom: async ({ payload, query, meta }) => {
      const route = (meta as { route?: Route } | undefined)?.route;
      if (!route) throw new Error('custom calls name their contract route in meta.route');
      return { data: (await call(route, route.method === 'GET' ? query : payload)) as never };
    },
  };
}
