// The console's users and platform view (docs/operator.md "Frozen accounts", "Console API"): lookup,
// one user's whole picture, freezing and unfreezing with a reason, revoking sessions; the dashboard,
// settled epochs and a settlement run on demand, the reward pools and their top-ups from the
// treasury. Every action writes its audit line in its own transaction. What it reads and changes of
// other modules' tables goes through their index.ts (docs/architecture.md "Table ownership").
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { toDecimalString } from '@nadi/money/money';
import {
  poolKindsTopped,
  type DashboardData,
  type freezeBody,
  type FreezeData,
  type OperatorUserDetail,
  type OperatorUserRow,
  type PoolRow,
  type poolTopupBody,
  type SettlementEpoch,
  type usersQuery,
} from '@nadi/api/operator-users';
import type { PageQuery } from '@nadi/api/common';
import type { Db, Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { roleOf } from '../../lib/operator.ts';
import type { SessionContext } from '../../lib/register-route.ts';
import { liveSessionsOf, revokeSessionRows } from '../auth/index.ts';
import {
  assetTotals,
  feesByDay,
  postFlow,
  systemAccount,
  systemAccountBalance,
  systemAccountExists,
  systemBalancesWithOutflow,
  transfer,
  userBalances,
  userJournal,
} from '../ledger/index.ts';
import { miningEpochPage, recentMiningEpochs, settleDueEpochs, userMiners } from '../mining/index.ts';
import { nodeEpochsPaid, nodeSalesByTier, userNodeHoldings } from '../node/index.ts';
import { depositsByDay, pendingWithdrawalCount, withdrawalsByDay } from '../onchain/index.ts';
import { pledgeEpochsPaid, userPledgePositions } from '../pledge/index.ts';
import { ordersToShipCount, userStoreOrders } from '../store/index.ts';
import { performanceRow, teamEpochsPaid } from '../team/index.ts';
import { consoleUser, directsOf, findUserById, newUsersByDay, referrersOf, searchUsers, setUserFrozen, type ConsoleUserRow } from '../user/index.ts';

/** An ISO time from a driver's date or text. */
export const iso = (v: Date | string): string => new Date(v).toISOString();
/** An amount column read as text, as the wire's decimal string. */
export const amount = (v: string | null | undefined): string => toDecimalString(BigInt(v ?? '0'));

/** The reason an action requires, trimmed; REASON_REQUIRED when blank. */
export function requiredReason(reason: string | undefined): string {
  const text = (reason ?? '').trim();
  if (text === '') throw new AppError('REASON_REQUIRED');
  return text;
}

// ─── Users ─────────────────────────────────────────────────────────────────────────────────────

function userRowOf(r: ConsoleUserRow): OperatorUserRow {
  return {
    id: Number(r.id),
    address: r.address,
    invite_code: r.invite_code,
    name: r.name,
    referrer_id: r.referrer_id === null ? null : Number(r.referrer_id),
    frozen_at: r.frozen_at === null ? null : iso(r.frozen_at),
    created_at: iso(r.created_at),
  };
}

const freezeStateOf = (r: Pick<ConsoleUserRow, 'id' | 'frozen_at' | 'frozen_reason'>): FreezeData => ({
  user_id: Number(r.id),
  frozen_at: r.frozen_at === null ? null : iso(r.frozen_at),
  frozen_reason: r.frozen_reason,
});

/**
 * Freezes (or unfreezes) an account with the operator's reason: the user still signs in and reads,
 * and credits still arrive, but the ledger refuses every flow they start that spends their balance
 * and the order routes refuse new orders (ACCOUNT_FROZEN). A repeat keeps the first freeze time.
 */
export async function setFrozen(deps: AppDeps, session: SessionContext, input: z.output<typeof freezeBody>, frozen: boolean): Promise<FreezeData> {
  const reason = requiredReason(input.reason);
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const before = await consoleUser(tx, input.user_id, true);
    if (!before) throw new AppError('NOT_FOUND');
    const after = await setUserFrozen(tx, input.user_id, frozen ? { at: now, reason } : null);
    await recordAudit(tx, {
      actorId: session.userId,
      action: frozen ? 'user.freeze' : 'user.unfreeze',
      targetType: 'user',
      targetId: input.user_id,
      before: freezeStateOf(before),
      after: freezeStateOf(after),
      reason,
      at: now,
    });
    return freezeStateOf(after);
  });
}

/** Users by id, invite code or address (a prefix), newest first; everyone when q is empty. */
export async function listUsers(deps: AppDeps, query: z.output<typeof usersQuery>) {
  const { rows, total } = await searchUsers(deps.db, query.q.trim(), query.page, query.page_size);
  return { list: rows.map(userRowOf), total, page: query.page, page_size: query.page_size };
}

const ledgerLinesMax = 50;
const listMax = 50;
const referrersMax = 10;

/** One user as the console shows them. */
export async function userDetail(deps: AppDeps, id: number): Promise<OperatorUserDetail> {
  const db = deps.db;
  const user = await consoleUser(db, id);
  if (!user) throw new AppError('NOT_FOUND');
  const now = deps.now();
  const [role, balances, ledger, orders, miners, nodes, savings, referrers, directs, perf, sessions] = await Promise.all([
    roleOf(deps, { userId: id, address: user.address }),
    userBalances(db, id),
    userJournal(db, id, ledgerLinesMax),
    userStoreOrders(db, id, listMax),
    userMiners(db, id, listMax),
    userNodeHoldings(db, id, listMax),
    userPledgePositions(db, id, listMax),
    referrersOf(db, id, referrersMax),
    directsOf(db, id, listMax),
    performanceRow(db, id),
    liveSessionsOf(db, id, now),
  ]);
  return {
    user: { ...userRowOf(user), frozen_reason: user.frozen_reason, level: Number(user.level), role },
    balances: balances.map((b) => ({
      kind: b.kind as OperatorUserDetail['balances'][number]['kind'],
      asset: b.asset as OperatorUserDetail['balances'][number]['asset'],
      available: amount(b.available),
      frozen: amount(b.frozen),
    })),
    ledger: ledger.map((l) => ({
      flow_id: Number(l.flow_id),
      type: l.type,
      kind: l.kind,
      asset: l.asset,
      amount: (l.is_debit ? '-' : '') + amount(l.amount),
      part: l.part,
      created_at: iso(l.created_at),
    })),
    orders: orders.map((o) => ({ ...o, id: Number(o.id), pay_amount: amount(o.pay_amount), created_at: iso(o.created_at) })),
    miners: miners.map((m) => ({ ...m, id: Number(m.id), created_at: iso(m.created_at) })),
    nodes: nodes.map((n) => ({ ...n, id: Number(n.id), tier_id: Number(n.tier_id), pay_amount: amount(n.pay_amount), created_at: iso(n.created_at) })),
    savings: savings.map((s) => ({ ...s, id: Number(s.id), product_id: Number(s.product_id), amount: amount(s.amount), created_at: iso(s.created_at) })),
    team: {
      referrers: referrers.map((r) => ({ id: Number(r.id), address: r.address, depth: Number(r.depth) })),
      directs: directs.map((r) => ({
        id: Number(r.id),
        address: r.address,
        frozen_at: r.frozen_at === null ? null : iso(r.frozen_at),
        created_at: iso(r.created_at),
      })),
      direct_count: Number(perf?.direct_count ?? 0),
      team_size: Number(perf?.team_size ?? 0),
      me_performance: amount(perf?.me_performance),
      team_performance: amount(perf?.team_performance),
    },
    sessions: sessions.map((s) => ({ id: Number(s.id), created_at: iso(s.created_at), last_seen_at: iso(s.last_seen_at), expires_at: iso(s.expires_at) })),
  };
}

/** Revokes live sessions (one, or every one of a user) with an audit line; each is dropped from every instance's cache. */
export async function revokeSessions(deps: AppDeps, session: SessionContext, target: { sessionId: number } | { userId: number }) {
  const now = deps.now();
  const revoked = await deps.db.transaction(async (tx) => {
    if ('userId' in target && !(await findUserById(tx, target.userId))) throw new AppError('NOT_FOUND');
    const ids = await revokeSessionRows(tx, target, now);
    if ('sessionId' in target && ids.length === 0) throw new AppError('NOT_FOUND');
    await recordAudit(tx, {
      actorId: session.userId,
      action: 'sessionId' in target ? 'session.revoke' : 'user.sessions.revoke',
      targetType: 'sessionId' in target ? 'session' : 'user',
      targetId: 'sessionId' in target ? target.sessionId : target.userId,
      before: { live: ids.map((r) => r.id) },
      after: { live: [] },
      at: now,
    });
    return ids;
  });
  for (const r of revoked) deps.events.publish({ type: 'session_revoked', sessionId: r.id });
  return { revoked: revoked.length };
}

// ─── Platform ──────────────────────────────────────────────────────────────────────────────────

const dayMs = 86_400_000;
/** The window the runway's average daily outflow is taken over. */
const runwayDays = 7;
const dashboardEpochs = 14;

/** Pools with their balance, the average daily outflow of the last seven days, and the days that lasts (null: nothing went out). */
async function poolsWithRunway(db: Db, now: Date) {
  const since = new Date(now.getTime() - runwayDays * dayMs);
  const list = await systemBalancesWithOutflow(db, poolKindsTopped, since);
  return list.map((p) => {
    const balance = BigInt(p.balance);
    const daily = BigInt(p.outflow) / BigInt(runwayDays);
    return {
      kind: p.kind,
      asset: p.asset,
      balance: toDecimalString(balance),
      daily_outflow: toDecimalString(daily),
      runway_days: daily > 0n ? Number((balance * 100n) / daily) / 100 : null,
    };
  });
}

/** Sums per day and asset as { day: { asset: amount } }. */
function byDay(list: { day: string; asset: string; total: string }[]): Map<string, Record<string, string>> {
  const map = new Map<string, Record<string, string>>();
  for (const r of list) map.set(r.day, { ...(map.get(r.day) ?? {}), [r.asset]: amount(r.total) });
  return map;
}

export async function dashboard(deps: AppDeps, days: number): Promise<DashboardData> {
  const db = deps.db;
  const now = deps.now();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const since = new Date(today - (days - 1) * dayMs);
  const [newUsers, deposits, withdrawals, fees, epochs, pools, nodeSales, toShip, pending, totals] = await Promise.all([
    newUsersByDay(db, since),
    depositsByDay(db, since),
    withdrawalsByDay(db, since),
    feesByDay(db, since),
    recentMiningEpochs(db, dashboardEpochs),
    poolsWithRunway(db, now),
    nodeSalesByTier(db),
    ordersToShipCount(db),
    pendingWithdrawalCount(db),
    assetTotals(db),
  ]);
  const users = new Map(newUsers.map((r) => [r.day, Number(r.n)]));
  const [dep, wd, fee] = [byDay(deposits), byDay(withdrawals), byDay(fees)];
  const dayList = Array.from({ length: days }, (_, i) => new Date(since.getTime() + i * dayMs).toISOString().slice(0, 10));
  const last = epochs[0];
  return {
    days: dayList.map((day) => ({
      day,
      new_users: users.get(day) ?? 0,
      deposits: dep.get(day) ?? {},
      withdrawals: wd.get(day) ?? {},
      fees: fee.get(day) ?? {},
    })),
    epochs: epochs.map((e) => ({ epoch: Number(e.epoch), paid: amount(e.paid), network_power: e.network_power, settled_at: iso(e.settled_at) })),
    pools,
    node_sales: nodeSales.map((s) => ({ tier_id: Number(s.tier_id), name: s.name, sold: Number(s.sold) })),
    orders_to_ship: toShip,
    pending_withdrawals: pending,
    last_settlement: last
      ? { epoch: Number(last.epoch), settled_at: iso(last.settled_at), duration_ms: last.duration_ms === null ? null : Number(last.duration_ms) }
      : null,
    // The ledger audit's cheap part: every asset sums to zero over all accounts (npm run ledger:audit proves the rest).
    ledger_check: { is_ok: totals.every((t) => BigInt(t.sum) === 0n), totals: totals.map((t) => ({ asset: t.asset, sum: t.sum })) },
  };
}

/** Settled epochs, newest first, with what mining, savings, nodes and the team paid in each. */
export async function settledEpochs(deps: AppDeps, query: PageQuery) {
  const { rows: list, total } = await miningEpochPage(deps.db, query.page, query.page_size);
  const numbers = list.map((e) => Number(e.epoch));
  const [savings, nodes, team] = await Promise.all([pledgeEpochsPaid(deps.db, numbers), nodeEpochsPaid(deps.db, numbers), teamEpochsPaid(deps.db, numbers)]);
  const savingsOf = new Map(savings.map((r) => [Number(r.epoch), r]));
  const nodesOf = new Map(nodes.map((r) => [Number(r.epoch), r]));
  const teamOf = new Map(team.map((r) => [Number(r.epoch), r]));
  const epochs: SettlementEpoch[] = list.map((e) => ({
    epoch: Number(e.epoch),
    starts_at: iso(e.starts_at),
    ends_at: iso(e.ends_at),
    settled_at: iso(e.settled_at),
    duration_ms: e.duration_ms === null ? null : Number(e.duration_ms),
    network_power: e.network_power,
    mining_paid: amount(e.paid),
    savings_paid: amount(savingsOf.get(Number(e.epoch))?.savings_paid),
    node_paid: amount(nodesOf.get(Number(e.epoch))?.node_paid),
    node_paid_usdt: amount(nodesOf.get(Number(e.epoch))?.node_paid_usdt),
    team_paid: amount(teamOf.get(Number(e.epoch))?.team_paid),
  }));
  return { list: epochs, total, page: query.page, page_size: query.page_size };
}

/** Settles every ended epoch not settled yet (what the job does; a second run settles nothing) and records who ran it. */
export async function runSettlement(deps: AppDeps, session: SessionContext) {
  const settled = await settleDueEpochs(deps);
  const answer = { settled: settled.map((s) => ({ epoch: s.epoch, paid: toDecimalString(s.paid) })) };
  await recordAudit(deps.db, { actorId: session.userId, action: 'settlement.run', targetType: 'settlement', targetId: null, after: answer, at: deps.now() });
  return answer;
}

const poolBalance = async (db: Db | Tx, kind: string, asset: string): Promise<string> => amount(await systemAccountBalance(db, kind, asset));

export async function pools(deps: AppDeps): Promise<PoolRow[]> {
  return (await poolsWithRunway(deps.db, deps.now())).map(({ kind, asset, balance }) => ({ kind, asset, balance }));
}

/** Tops a pool up from the treasury (a data_adjustment flow) with the admin's reason and an audit line. */
export async function topUpPool(deps: AppDeps, session: SessionContext, input: z.output<typeof poolTopupBody>): Promise<PoolRow> {
  const reason = requiredReason(input.reason);
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    // Not every pool holds every asset (no USDT node pool): a top-up of one that does not exist is
    // refused as such, where the ledger used to throw and answer a 500 (found by the contract fuzzer).
    if (!(await systemAccountExists(tx, input.pool, input.asset))) throw new AppError('NOT_FOUND');
    const before = await poolBalance(tx, input.pool, input.asset);
    const { flowId } = await postFlow(tx, {
      idempotencyKey: `pool_topup:${randomUUID()}`,
      userId: null,
      type: 'data_adjustment',
      params: { pool: input.pool, asset: input.asset, amount: input.amount },
      legs: [transfer('data_adjustment', systemAccount('treasury', input.asset), systemAccount(input.pool, input.asset), input.amount, { reason })],
      result: () => null,
    });
    const after = await poolBalance(tx, input.pool, input.asset);
    await recordAudit(tx, {
      actorId: session.userId,
      action: 'pool.topup',
      targetType: 'pool',
      targetId: `${input.pool}:${input.asset}`,
      before: { balance: before },
      after: { balance: after, amount: toDecimalString(input.amount), flow_id: flowId },
      reason,
      at: now,
    });
    return { kind: input.pool, asset: input.asset, balance: after };
  });
}
