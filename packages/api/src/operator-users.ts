import { z } from 'zod/mini';
import { envelope, idQuery, isoDate, pageQuery, paged, queryInt } from './common.ts';
import { operatorRoles, route } from './route.ts';
import { amountSchema, amountText, assets, userAccountKinds } from './wallet.ts';

// The operator console's users, sessions, settlement and pools (docs/operator.md "Console API").

/** A reason an operator writes; blank is refused by the server with REASON_REQUIRED. */
const reasonText = z._default(z.string().check(z.maxLength(500)), '');

/** A row id: PostgreSQL's integer (a larger one used to reach the database and fail as a 500). */
const rowId = z.int().check(z.gte(1), z.lte(2 ** 31 - 1));
export const freezeBody = z.object({ user_id: rowId, reason: reasonText });
export const freezeData = z.object({ user_id: z.int(), frozen_at: z.nullable(isoDate), frozen_reason: z.nullable(z.string()) });
export type FreezeData = z.infer<typeof freezeData>;

export const usersQuery = z.extend(pageQuery, { q: z._default(z.string().check(z.trim(), z.maxLength(100)), '') });
export const operatorUserRow = z.object({
  id: z.int(),
  address: z.string(),
  invite_code: z.string(),
  name: z.string(),
  referrer_id: z.nullable(z.int()),
  frozen_at: z.nullable(isoDate),
  created_at: isoDate,
});
export type OperatorUserRow = z.infer<typeof operatorUserRow>;

export const operatorUserDetail = z.object({
  user: z.extend(operatorUserRow, { frozen_reason: z.nullable(z.string()), level: z.int(), role: z.nullable(z.enum(operatorRoles)) }),
  balances: z.array(z.object({ kind: z.enum(userAccountKinds), asset: z.enum(assets), available: amountText, frozen: amountText })),
  ledger: z.array(
    z.object({
      flow_id: z.int(),
      type: z.string(),
      kind: z.string(),
      asset: z.string(),
      /** Signed: negative when the user's account was debited. */
      amount: amountText,
      part: z.string(),
      created_at: isoDate,
    }),
  ),
  orders: z.array(z.object({ id: z.int(), order_no: z.string(), status: z.string(), pay_asset: z.string(), pay_amount: amountText, created_at: isoDate })),
  miners: z.array(z.object({ id: z.int(), kind: z.string(), status: z.string(), power: z.string(), created_at: isoDate })),
  nodes: z.array(z.object({ id: z.int(), tier_id: z.int(), pay_method: z.string(), pay_asset: z.string(), pay_amount: amountText, created_at: isoDate })),
  savings: z.array(z.object({ id: z.int(), product_id: z.int(), amount: amountText, status: z.string(), created_at: isoDate })),
  team: z.object({
    /** Referrers upwards, nearest first, at most ten. */
    referrers: z.array(z.object({ id: z.int(), address: z.string(), depth: z.int() })),
    /** Users this one referred directly, newest first, at most fifty (direct_count counts them all). */
    directs: z.array(z.object({ id: z.int(), address: z.string(), frozen_at: z.nullable(isoDate), created_at: isoDate })),
    direct_count: z.int(),
    team_size: z.int(),
    me_performance: amountText,
    team_performance: amountText,
  }),
  sessions: z.array(z.object({ id: z.int(), created_at: isoDate, last_seen_at: isoDate, expires_at: isoDate })),
});
export type OperatorUserDetail = z.infer<typeof operatorUserDetail>;

export const sessionRevokeBody = z.object({ session_id: rowId });
export const userSessionsRevokeBody = z.object({ user_id: rowId });
export const revokedData = z.object({ revoked: z.int() });

export const dashboardQuery = z.object({ days: z._default(queryInt(1, 90), 14) });
export const dashboardData = z.object({
  days: z.array(
    z.object({
      day: z.string(),
      new_users: z.int(),
      deposits: z.record(z.string(), amountText),
      withdrawals: z.record(z.string(), amountText),
      fees: z.record(z.string(), amountText),
    }),
  ),
  epochs: z.array(z.object({ epoch: z.int(), paid: amountText, network_power: z.string(), settled_at: isoDate })),
  pools: z.array(z.object({ kind: z.string(), asset: z.string(), balance: amountText, daily_outflow: amountText, runway_days: z.nullable(z.number()) })),
  node_sales: z.array(z.object({ tier_id: z.int(), name: z.string(), sold: z.int() })),
  orders_to_ship: z.int(),
  pending_withdrawals: z.int(),
  last_settlement: z.nullable(z.object({ epoch: z.int(), settled_at: isoDate, duration_ms: z.nullable(z.int()) })),
  ledger_check: z.object({ is_ok: z.boolean(), totals: z.array(z.object({ asset: z.string(), sum: z.string() })) }),
});
export type DashboardData = z.infer<typeof dashboardData>;

export const settlementEpoch = z.object({
  epoch: z.int(),
  starts_at: isoDate,
  ends_at: isoDate,
  settled_at: isoDate,
  duration_ms: z.nullable(z.int()),
  network_power: z.string(),
  mining_paid: amountText,
  savings_paid: amountText,
  /** Node dividends and bonus in NADI, and the USDT dividend. */
  node_paid: amountText,
  node_paid_usdt: amountText,
  team_paid: amountText,
});
export type SettlementEpoch = z.infer<typeof settlementEpoch>;
export const settlementRunData = z.object({ settled: z.array(z.object({ epoch: z.int(), paid: amountText })) });

export const poolRow = z.object({ kind: z.string(), asset: z.string(), balance: amountText });
export type PoolRow = z.infer<typeof poolRow>;
export const poolKindsTopped = ['mining_pool', 'node_pool', 'savings_pool', 'referral_pool', 'signin_pool', 'rewards_pool'] as const;
export const poolTopupBody = z.object({
  pool: z.enum(poolKindsTopped),
  asset: z._default(z.enum(assets), 'NADI'),
  amount: amountSchema,
  reason: reasonText,
});

export const operatorUserRoutes = {
  freeze: route({
    method: 'POST',
    path: '/api/v1/operator/user/freeze',
    input: freezeBody,
    response: envelope(freezeData),
    auth: true,
    role: 'operator',
    summary: 'Operators: freeze an account with a reason (it signs in and reads, moves no money)',
  }),
  unfreeze: route({
    method: 'POST',
    path: '/api/v1/operator/user/unfreeze',
    input: freezeBody,
    response: envelope(freezeData),
    auth: true,
    role: 'operator',
    summary: 'Operators: lift a freeze with a reason',
  }),
  users: route({
    method: 'GET',
    path: '/api/v1/operator/users',
    input: usersQuery,
    response: envelope(paged(operatorUserRow)),
    auth: true,
    role: 'viewer',
    summary: 'Console: users by address, invite code or id (newest first when q is empty)',
  }),
  user: route({
    method: 'GET',
    path: '/api/v1/operator/user',
    input: idQuery,
    response: envelope(operatorUserDetail),
    auth: true,
    role: 'viewer',
    summary: 'Console: one user: profile, balances, ledger lines, orders, miners, nodes, savings, team, sessions',
  }),
  revokeSession: route({
    method: 'POST',
    path: '/api/v1/operator/session/revoke',
    input: sessionRevokeBody,
    response: envelope(revokedData),
    auth: true,
    role: 'operator',
    summary: 'Operators: revoke one session',
  }),
  revokeUserSessions: route({
    method: 'POST',
    path: '/api/v1/operator/user/sessions/revoke',
    input: userSessionsRevokeBody,
    response: envelope(revokedData),
    auth: true,
    role: 'operator',
    summary: 'Operators: revoke every live session of a user',
  }),
  dashboard: route({
    method: 'GET',
    path: '/api/v1/operator/dashboard',
    input: dashboardQuery,
    response: envelope(dashboardData),
    auth: true,
    role: 'viewer',
    summary: 'Console: the dashboard figures',
  }),
  epochs: route({
    method: 'GET',
    path: '/api/v1/operator/settlement/epochs',
    input: pageQuery,
    response: envelope(paged(settlementEpoch)),
    auth: true,
    role: 'viewer',
    summary: 'Console: settled epochs, newest first, with what each paid',
  }),
  runSettlement: route({
    method: 'POST',
    path: '/api/v1/operator/settlement/run',
    input: undefined,
    response: envelope(settlementRunData),
    auth: true,
    role: 'operator',
    summary: 'Operators: settle every ended epoch not settled yet (idempotent)',
    limitClass: 'money',
  }),
  pools: route({
    method: 'GET',
    path: '/api/v1/operator/pools',
    input: undefined,
    response: envelope(z.array(poolRow)),
    auth: true,
    role: 'viewer',
    summary: 'Console: the reward pools and their balances',
  }),
  poolTopup: route({
    method: 'POST',
    path: '/api/v1/operator/pool/topup',
    input: poolTopupBody,
    response: envelope(poolRow),
    auth: true,
    role: 'admin',
    summary: 'Admins: top a pool up from the treasury with a reason',
    limitClass: 'money',
  }),
};
