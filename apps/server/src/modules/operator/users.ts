// The console's users (docs/operator.md "Frozen accounts", "Console API"): lookup, one user's whole
// picture, freezing and unfreezing with a reason, and revoking sessions. Every action writes its
// audit line in its own transaction.
import { sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { toDecimalString } from '@nadi/money/money';
import type { FastifyInstance } from 'fastify';
import { operatorUserRoutes, type freezeBody, type FreezeData, type OperatorUserDetail, type OperatorUserRow, type usersQuery } from '@nadi/api/operator-users';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { roleOf } from '../../lib/operator.ts';
import { registerRoute, type SessionContext } from '../../lib/register-route.ts';

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

interface UserRow {
  id: number;
  address: string;
  invite_code: string;
  name: string;
  referrer_id: number | null;
  level: number;
  frozen_at: Date | string | null;
  frozen_reason: string | null;
  created_at: Date | string;
}

const userColumns = sql`id, address, invite_code, name, referrer_id, level, frozen_at, frozen_reason, created_at`;

function userRowOf(r: UserRow): OperatorUserRow {
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

const freezeStateOf = (r: Pick<UserRow, 'id' | 'frozen_at' | 'frozen_reason'>): FreezeData => ({
  user_id: Number(r.id),
  frozen_at: r.frozen_at === null ? null : iso(r.frozen_at),
  frozen_reason: r.frozen_reason,
});

async function lockUser(tx: Tx, id: number): Promise<UserRow> {
  const row = rowsOf<UserRow>(await tx.execute(sql`select ${userColumns} from users where id = ${id} for update`))[0];
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

/**
 * Freezes (or unfreezes) an account with the operator's reason: the user still signs in and reads,
 * and credits still arrive, but the ledger refuses every flow they start that spends their balance
 * and the order routes refuse new orders (ACCOUNT_FROZEN). A repeat keeps the first freeze time.
 */
export async function setFrozen(deps: AppDeps, session: SessionContext, input: z.output<typeof freezeBody>, frozen: boolean): Promise<FreezeData> {
  const reason = requiredReason(input.reason);
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const before = await lockUser(tx, input.user_id);
    const after = rowsOf<UserRow>(
      await tx.execute(
        frozen
          ? sql`update users set frozen_at = coalesce(frozen_at, ${now}), frozen_reason = ${reason} where id = ${input.user_id} returning ${userColumns}`
          : sql`update users set frozen_at = null, frozen_reason = null where id = ${input.user_id} returning ${userColumns}`,
      ),
    )[0]!;
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
  const q = query.q.trim();
  let where: SQL = sql`true`;
  if (q !== '') {
    const conditions = [sql`upper(invite_code) = ${q.toUpperCase()}`, sql`address like ${`${q.toLowerCase().replace(/[%_\\]/g, '')}%`}`];
    if (/^[0-9]{1,9}$/.test(q)) conditions.push(sql`id = ${Number(q)}`);
    where = sql.join(conditions, sql` or `);
  }
  const rows = rowsOf<UserRow>(
    await deps.db.execute(
      sql`select ${userColumns} from users where ${where} order by id desc limit ${query.page_size} offset ${(query.page - 1) * query.page_size}`,
    ),
  );
  const total = Number(rowsOf<{ n: string | number }>(await deps.db.execute(sql`select count(*) as n from users where ${where}`))[0]?.n ?? 0);
  return { list: rows.map(userRowOf), total, page: query.page, page_size: query.page_size };
}

const ledgerLinesMax = 50;
const listMax = 50;
const referrersMax = 10;

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return rowsOf<T>(await db.execute(query));
}

/** One user as the console shows them. */
export async function userDetail(deps: AppDeps, id: number): Promise<OperatorUserDetail> {
  const db = deps.db;
  const user = (await rows<UserRow>(db, sql`select ${userColumns} from users where id = ${id}`))[0];
  if (!user) throw new AppError('NOT_FOUND');
  const now = deps.now();
  const [role, balances, ledger, orders, miners, nodes, savings, referrers, directs, performance, sessions] = await Promise.all([
    roleOf(deps, { userId: id, address: user.address }),
    rows<{ kind: string; asset: string; available: string; frozen: string }>(
      db,
      sql`select kind, asset, available::text as available, frozen::text as frozen from ledger_accounts where user_id = ${id} order by kind, asset`,
    ),
    rows<{ flow_id: number | string; type: string; kind: string; asset: string; amount: string; part: string; is_debit: boolean; created_at: Date | string }>(
      db,
      sql`select t.flow_id, t.type, a.kind, t.asset, t.amount::text as amount, a.id = t.debit_account_id as is_debit,
                 case when a.id = t.debit_account_id then t.debit_part else t.credit_part end as part, t.created_at
          from ledger_transfers t join ledger_accounts a on a.id in (t.debit_account_id, t.credit_account_id)
          where a.user_id = ${id} order by t.id desc, a.id = t.debit_account_id desc limit ${ledgerLinesMax}`,
    ),
    rows<{ id: number; order_no: string; status: string; pay_asset: string; pay_amount: string; created_at: Date | string }>(
      db,
      sql`select id, order_no, status, pay_asset, pay_amount::text as pay_amount, created_at from store_orders where user_id = ${id} order by id desc limit ${listMax}`,
    ),
    rows<{ id: number; kind: string; status: string; power: string; created_at: Date | string }>(
      db,
      sql`select id, kind::text as kind, status::text as status, (base_power + gift_power)::text as power, created_at from miners where user_id = ${id} order by id desc limit ${listMax}`,
    ),
    rows<{ id: number; tier_id: number; pay_method: string; pay_asset: string; pay_amount: string; created_at: Date | string }>(
      db,
      sql`select id, tier_id, pay_method, pay_asset, pay_amount::text as pay_amount, created_at from user_nodes where user_id = ${id} order by id desc limit ${listMax}`,
    ),
    rows<{ id: number; product_id: number; amount: string; status: string; created_at: Date | string }>(
      db,
      sql`select id, product_id, amount::text as amount, status::text as status, created_at from pledge_positions where user_id = ${id} order by id desc limit ${listMax}`,
    ),
    rows<{ id: number; address: string; depth: number }>(
      db,
      sql`select u.id, u.address, a.depth from user_ancestors a join users u on u.id = a.ancestor_id
          where a.user_id = ${id} and a.depth between 1 and ${referrersMax} order by a.depth`,
    ),
    rows<{ id: number; address: string; frozen_at: Date | string | null; created_at: Date | string }>(
      db,
      sql`select id, address, frozen_at, created_at from users where referrer_id = ${id} order by id desc limit ${listMax}`,
    ),
    rows<{ me_performance: string; team_performance: string; direct_count: number; team_size: number }>(
      db,
      sql`select me_performance::text as me_performance, team_performance::text as team_performance, direct_count, team_size from user_performance where user_id = ${id}`,
    ),
    rows<{ id: number; created_at: Date | string; last_seen_at: Date | string; expires_at: Date | string }>(
      db,
      sql`select id, created_at, last_seen_at, expires_at from sessions where user_id = ${id} and revoked_at is null and expires_at > ${now} order by id desc`,
    ),
  ]);
  const perf = performance[0];
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
    const where = 'sessionId' in target ? sql`id = ${target.sessionId}` : sql`user_id = ${target.userId}`;
    if ('userId' in target && !rowsOf(await tx.execute(sql`select 1 from users where id = ${target.userId}`))[0]) throw new AppError('NOT_FOUND');
    const ids = rowsOf<{ id: number; user_id: number }>(
      await tx.execute(sql`update sessions set revoked_at = ${now} where ${where} and revoked_at is null returning id, user_id`),
    );
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

/** Registers the users part of the console API (operatorModule calls it). */
export function userRoutes(app: FastifyInstance) {
  const { deps } = app;
  const r = operatorUserRoutes;
  registerRoute(app, r.freeze, async ({ session, input }) => setFrozen(deps, session, input, true));
  registerRoute(app, r.unfreeze, async ({ session, input }) => setFrozen(deps, session, input, false));
  registerRoute(app, r.users, async ({ input }) => listUsers(deps, input));
  registerRoute(app, r.user, async ({ input }) => userDetail(deps, input.id));
  registerRoute(app, r.revokeSession, async ({ session, input }) => revokeSessions(deps, session, { sessionId: input.session_id }));
  registerRoute(app, r.revokeUserSessions, async ({ session, input }) => revokeSessions(deps, session, { userId: input.user_id }));
}
