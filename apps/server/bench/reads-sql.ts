// The SQL the app's four common reads issue (bench:reads, docs/benchmarks.md "Reads"), for the bare
// Fastify + pg handler it is measured against. Recorded from the app on PostgreSQL (every statement a
// request sends through pg, the session cache cold), statement by statement, in the same order and
// with the same concurrency (Promise.all where the service runs them together):
//   session      auth/repo.ts findSessionByTokenHash (the app reads it once per 5 s per token: its
//                session cache; it renews the row every 15 s of use; the bare handler reads it on
//                every request and never writes)
//   user_info    user/service.ts getUserInfo: the user; then the team figures, miningNow (the mining
//                genesis setting and the economy parameters), the referrer and the highest node level
//   assets       wallet/service.ts getAssets: the user's accounts and the reference price setting
//   mining       mining/service.ts getOverview: miningNow, then nine reads at once (power, network
//                power, pool, income, vesting, last settled epoch, the market's time-weighted price,
//                destroy quota, trial miner), then the reference price setting
//   orders       market/queries.ts listOrders: page 1 of 10 open orders and their count
// What the bare handler does not do is what it is measured against: the envelope, the abuse limits,
// the session cache and renewal, validation, the app's arithmetic and response schemas, logging.
import type pg from 'pg';

export const readNames = ['user_info', 'assets', 'mining', 'orders'] as const;
export type ReadName = (typeof readNames)[number];

export const readPaths: Record<ReadName, string> = {
  user_info: '/api/v1/user/info',
  assets: '/api/v1/wallet/assets',
  mining: '/api/v1/mining/overview',
  orders: '/api/v1/trade/currentOrders',
};

const userById =
  'select "id", "address", "invite_code", "referrer_id", "name", "level", "role", "frozen_at", "frozen_reason", "created_at" from "users" where "users"."id" = $1 limit $2';
const teamFigures = `
      select p.me_performance::text as me, (p.team_performance + (select coalesce(sum(q.usdt), 0) from performance_pending q
        where exists (select 1 from user_ancestors a where a.ancestor_id = p.user_id and a.user_id = q.user_id)))::text as team, p.direct_count as directs,
             p.active_directs + (select coalesce(sum(q.active_delta), 0) from performance_pending q where q.referrer_id = p.user_id)::int as active, p.team_size as size
        from user_performance p where p.user_id = $1`;
const setting = 'select value::text as value from "app_settings" where key = $1';
const economyParams = 'select name, effective_epoch, value from economy_params order by effective_epoch, name';
const nodeLevel =
  'select max("node_tiers"."level_id") from "user_nodes" inner join "node_tiers" on "node_tiers"."id" = "user_nodes"."tier_id" where "user_nodes"."user_id" = $1';
const accounts = 'select kind, asset, available::text, frozen::text from ledger_accounts where user_id = $1 order by id';
const twap = `
      with points as (
        (select ts_ms, seq, price from market_trades
          where symbol = $1 and ts_ms <= $2
          order by ts_ms desc, seq desc limit 1)
        union all
        (select ts_ms, seq, price from market_trades
          where symbol = $3 and ts_ms > $4 and ts_ms < $5)
      ), spans as (
        select price, greatest(ts_ms, $6::bigint) as t0,
               coalesce(lead(greatest(ts_ms, $7::bigint)) over (order by ts_ms, seq), $8::bigint) as t1
          from points
      )
      select sum(price * (t1 - t0))::text as weighted, ($9::bigint - min(t0))::text as span from spans`;
const orderColumns =
  '"id", "user_id", "client_order_id", "symbol", "side", "type", "price", "quantity", "quote_amount", "filled", "quote_filled", "fee_numerator", "fee", "frozen", "frozen_remaining", "status", "cancel_reason", "seq", "last_seq", "ts_ms", "params_hash", "created_at", "updated_at"';
const openOrdersWhere = '("market_orders"."user_id" = $1 and "market_orders"."symbol" = $2 and "market_orders"."status" in ($3, $4))';

type Read = (pool: pg.Pool, userId: number) => Promise<unknown>;

async function rows(pool: pg.Pool, text: string, values: unknown[]): Promise<unknown[]> {
  return (await pool.query(text, values)).rows;
}

/** The reference window of the mining overview's price: 15 minutes up to now, on a one-minute step. */
const referenceWindowMs = 15 * 60_000;
const referenceStepMs = 60_000;

export const readSql: Record<ReadName, Read> & { session: { text: string; values: (tokenHash: string) => unknown[] } } = {
  session: {
    text: 'select "id", "token_hash", "user_id", "address", "created_at", "last_seen_at", "expires_at", "revoked_at" from "sessions" where ("sessions"."token_hash" = $1 and "sessions"."revoked_at" is null) limit $2',
    values: (tokenHash) => [tokenHash, 1],
  },
  user_info: async (pool, userId) => {
    const [user] = (await rows(pool, userById, [userId, 1])) as { referrer_id: number | null }[];
    if (!user) return null;
    const [figures, genesis, params, referrer, level] = await Promise.all([
      rows(pool, teamFigures, [userId]),
      rows(pool, setting, ['mining_genesis']),
      rows(pool, economyParams, []),
      user.referrer_id === null ? Promise.resolve([]) : rows(pool, userById, [user.referrer_id, 1]),
      rows(pool, nodeLevel, [userId]),
    ]);
    return { user, figures, genesis, params: params.length, referrer, level };
  },
  assets: async (pool, userId) => {
    const [list, price] = await Promise.all([rows(pool, accounts, [userId]), rows(pool, setting, ['nadi_reference_price'])]);
    return { accounts: list, price };
  },
  mining: async (pool, userId) => {
    const [genesis, params] = await Promise.all([rows(pool, setting, ['mining_genesis']), rows(pool, economyParams, [])]);
    const at = Math.floor(Date.now() / referenceStepMs) * referenceStepMs;
    const from = at - referenceWindowMs;
    const reads = await Promise.all([
      rows(pool, 'select power::text as power from user_power where user_id = $1', [userId]),
      rows(pool, 'select sum(power)::text as power from user_power', []),
      rows(pool, 'select available::text as available from ledger_accounts where user_id is null and kind = $1 and asset = $2', ['mining_pool', 'NADI']),
      rows(pool, 'select sum(immediate + locked)::text as total from mining_results where user_id = $1', [userId]),
      rows(pool, 'select locked::text as locked, claimable::text as claimable, claimed::text as claimed from mining_vesting where user_id = $1', [userId]),
      rows(pool, 'select max(epoch) as epoch from mining_epochs where settled_at is not null', []),
      rows(pool, twap, ['NADI-USDT', from, 'NADI-USDT', from, at, from, from, at, at]),
      rows(pool, 'select available::text as available from ledger_accounts where user_id = $1 and kind = $2 and asset = $3', [userId, 'destroy_quota', 'USDT']),
      rows(pool, "select status, ends_epoch from miners where user_id = $1 and kind = 'trial'", [userId]),
    ]);
    const price = await rows(pool, setting, ['nadi_reference_price']);
    return { genesis, params: params.length, reads, price };
  },
  orders: async (pool, userId) => {
    const [list, count] = await Promise.all([
      rows(pool, `select ${orderColumns} from "market_orders" where ${openOrdersWhere} order by "market_orders"."id" desc limit $5`, [
        userId,
        'NADI-USDT',
        'pending',
        'partial',
        10,
      ]),
      rows(pool, `select count(*)::int from "market_orders" where ${openOrdersWhere}`, [userId, 'NADI-USDT', 'pending', 'partial']),
    ]);
    return { list, total: (count[0] as { count: number } | undefined)?.count ?? 0 };
  },
};
