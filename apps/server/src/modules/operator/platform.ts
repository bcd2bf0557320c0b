// The console's platform view (docs/operator.md "Console API"): the dashboard, settled epochs and a
// settlement run on demand, the reward pools and their top-ups from the treasury.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { toDecimalString } from '@nadi/money/money';
import { operatorUserRoutes, poolKindsTopped, type DashboardData, type PoolRow, type poolTopupBody, type SettlementEpoch } from '@nadi/api/operator-users';
import type { PageQuery } from '@nadi/api/common';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AppDeps } from '../../deps.ts';
import { recordAudit } from '../../lib/audit.ts';
import { registerRoute, type SessionContext } from '../../lib/register-route.ts';
import { postFlow, systemAccount, transfer } from '../ledger/index.ts';
import { settleDueEpochs } from '../mining/index.ts';
import { amount, iso, requiredReason } from './users.ts';

const dayMs = 86_400_000;
/** The window the runway's average daily outflow is taken over. */
const runwayDays = 7;
const dashboardEpochs = 14;

async function rows<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  return rowsOf<T>(await db.execute(query));
}

const dayOf = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;

/** Pools with their balance, the average daily outflow of the last seven days, and the days that lasts (null: nothing went out). */
async function poolsWithRunway(db: Db, now: Date) {
  const since = new Date(now.getTime() - runwayDays * dayMs);
  const list = await rows<{ kind: string; asset: string; balance: string; outflow: string }>(
    db,
    sql`select a.kind, a.asset, (a.available + a.frozen)::text as balance,
               coalesce((select sum(t.amount) from ledger_transfers t where t.debit_account_id = a.id and t.created_at >= ${since}), 0)::text as outflow
        from ledger_accounts a where a.user_id is null and a.kind in (${sql.join(
          poolKindsTopped.map((k) => sql`${k}`),
          sql`, `,
        )}) order by a.kind, a.asset`,
  );
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
    rows<{ day: string; n: string | number }>(
      db,
      sql`select ${dayOf(sql`created_at`)} as day, count(*) as n from users where created_at >= ${since} group by 1`,
    ),
    rows<{ day: string; asset: string; total: string }>(
      db,
      sql`select ${dayOf(sql`credited_at`)} as day, asset, sum(amount)::text as total from deposits where status = 'credited' and credited_at >= ${since} group by 1, 2`,
    ),
    rows<{ day: string; asset: string; total: string }>(
      db,
      sql`select ${dayOf(sql`completed_at`)} as day, asset, sum(amount)::text as total from withdrawals where status = 2 and completed_at >= ${since} group by 1, 2`,
    ),
    rows<{ day: string; asset: string; total: string }>(
      db,
      sql`select ${dayOf(sql`t.created_at`)} as day, t.asset, sum(t.amount)::text as total from ledger_transfers t
          join ledger_accounts a on a.id = t.credit_account_id and a.user_id is null and a.kind = 'fees'
          where t.created_at >= ${since} group by 1, 2`,
    ),
    rows<{ epoch: number; paid: string; network_power: string; settled_at: Date | string; duration_ms: number | null }>(
      db,
      sql`select epoch, paid::text as paid, network_power::text as network_power, settled_at, duration_ms from mining_epochs order by epoch desc limit ${dashboardEpochs}`,
    ),
    poolsWithRunway(db, now),
    rows<{ tier_id: number; name: string; sold: string | number }>(
      db,
      sql`select t.id as tier_id, t.name, count(n.id) as sold from node_tiers t left join user_nodes n on n.tier_id = t.id group by t.id, t.name order by t.id`,
    ),
    rows<{ n: string | number }>(db, sql`select count(*) as n from store_orders where status = 'to_ship'`),
    rows<{ n: string | number }>(db, sql`select count(*) as n from withdrawals where status = 0`),
    rows<{ asset: string; sum: string }>(db, sql`select asset, sum(available + frozen)::text as sum from ledger_accounts group by asset order by asset`),
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
    orders_to_ship: Number(toShip[0]?.n ?? 0),
    pending_withdrawals: Number(pending[0]?.n ?? 0),
    last_settlement: last
      ? { epoch: Number(last.epoch), settled_at: iso(last.settled_at), duration_ms: last.duration_ms === null ? null : Number(last.duration_ms) }
      : null,
    // The ledger audit's cheap part: every asset sums to zero over all accounts (npm run ledger:audit proves the rest).
    ledger_check: { is_ok: totals.every((t) => BigInt(t.sum) === 0n), totals: totals.map((t) => ({ asset: t.asset, sum: t.sum })) },
  };
}

/** Settled epochs, newest first, with what mining, savings, nodes and the team paid in each. */
export async function settledEpochs(deps: AppDeps, query: PageQuery) {
  const list = await rows<{
    epoch: number;
    starts_at: Date | string;
    ends_at: Date | string;
    settled_at: Date | string;
    duration_ms: number | null;
    network_power: string;
    mining_paid: string;
    savings_paid: string | null;
    node_paid: string | null;
    node_paid_usdt: string | null;
    team_paid: string | null;
  }>(
    deps.db,
    sql`select m.epoch, m.starts_at, m.ends_at, m.settled_at, m.duration_ms, m.network_power::text as network_power, m.paid::text as mining_paid,
               p.interest_paid::text as savings_paid, (n.dividend_nadi + n.bonus_paid)::text as node_paid, n.dividend_usdt::text as node_paid_usdt,
               t.paid::text as team_paid
        from mining_epochs m
        left join pledge_epochs p on p.epoch = m.epoch
        left join node_epochs n on n.epoch = m.epoch
        left join team_epochs t on t.epoch = m.epoch
        order by m.epoch desc limit ${query.page_size} offset ${(query.page - 1) * query.page_size}`,
  );
  const total = Number((await rows<{ n: string | number }>(deps.db, sql`select count(*) as n from mining_epochs`))[0]?.n ?? 0);
  const epochs: SettlementEpoch[] = list.map((e) => ({
    epoch: Number(e.epoch),
    starts_at: iso(e.starts_at),
    ends_at: iso(e.ends_at),
    settled_at: iso(e.settled_at),
    duration_ms: e.duration_ms === null ? null : Number(e.duration_ms),
    network_power: e.network_power,
    mining_paid: amount(e.mining_paid),
    savings_paid: amount(e.savings_paid),
    node_paid: amount(e.node_paid),
    node_paid_usdt: amount(e.node_paid_usdt),
    team_paid: amount(e.team_paid),
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

async function poolBalance(db: Db | Tx, kind: string, asset: string): Promise<string> {
  const row = (
    await rows<{ balance: string }>(
      db,
      sql`select (available + frozen)::text as balance from ledger_accounts where user_id is null and kind = ${kind} and asset = ${asset}`,
    )
  )[0];
  return amount(row?.balance);
}

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
    const accounts = await rows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from ledger_accounts where user_id is null and kind = ${input.pool} and asset = ${input.asset}`,
    );
    if (Number(accounts[0]?.n ?? 0) === 0) throw new AppError('NOT_FOUND');
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

/** Registers the platform part of the console API (operatorModule calls it). */
export function platformRoutes(app: FastifyInstance) {
  const { deps } = app;
  const r = operatorUserRoutes;
  registerRoute(app, r.dashboard, async ({ input }) => dashboard(deps, input.days));
  registerRoute(app, r.epochs, async ({ input }) => settledEpochs(deps, input));
  registerRoute(app, r.runSettlement, async ({ session }) => runSettlement(deps, session));
  registerRoute(app, r.pools, async () => pools(deps));
  registerRoute(app, r.poolTopup, async ({ session, input }) => topUpPool(deps, session, input));
}
