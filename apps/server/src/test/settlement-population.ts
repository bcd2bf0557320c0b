// Synthetic mining populations for the settlement's tests and benchmark (never used by the app):
// users with their ledger accounts, miners of every kind with the rows that go with them (device,
// uptime, power), node holdings and savings positions with their miners, row by row for small test
// populations or set-based for large ones.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';

export type MinerKind = 'trial' | 'destroy' | 'device' | 'node' | 'pledge';

export interface MinerSpec {
  userId: number;
  kind: MinerKind;
  status: 1 | 2 | 3 | 4;
  basePower: bigint;
  giftPower: bigint;
  startsEpoch: number;
  endsEpoch: number | null;
  createdAt: Date;
  /** Devices: the first valid heartbeat (null: never seen). */
  firstSeenAt: Date | null;
  budget: bigint;
  released: bigint;
  /** Devices: heartbeats counted per epoch. */
  beats: { epoch: number; beats: number }[];
}

const tag = () => randomBytes(6).toString('hex');

/** `count` users with their five ledger accounts, set-based; answers their ids in order. */
/** Sets an app setting (the mining genesis, the reference price) as the tests of the settlement need it. */
export async function setSetting(db: Db | Tx, key: string, value: unknown): Promise<void> {
  await db.execute(sql`insert into app_settings (key, value) values (${key}, ${JSON.stringify(value)}::jsonb)
                       on conflict (key) do update set value = excluded.value`);
}

/**
 * The seed gives every user who existed before mining (the root user) a trial miner; tests that
 * compare with the reference model start from no miners at all.
 */
export async function removeSeededMiners(db: Db | Tx): Promise<void> {
  await db.execute(sql`delete from power_log`);
  await db.execute(sql`delete from user_power`);
  await db.execute(sql`delete from miners`);
}

export async function createUsers(db: Db | Tx, count: number): Promise<number[]> {
  const run = tag();
  const rows = rowsOf<{ id: number }>(
    await db.execute(sql`
      insert into users (address, invite_code, name)
      select '0x' || ${run} || lpad(to_hex(n), 28, '0'), 'S' || ${run} || n, 'miner ' || n from generate_series(1, ${count}::int) n
      order by n
      returning id`),
  );
  const ids = rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  if (ids.length > 0) {
    await db.execute(sql`
      insert into ledger_accounts (user_id, kind, asset, is_system)
      select u.id, k.kind, k.asset, false
        from users u cross join (values ('fund', 'NADI'), ('fund', 'USDT'), ('trade', 'NADI'), ('trade', 'USDT'), ('destroy_quota', 'USDT')) as k(kind, asset)
       where u.id between ${ids[0]}::int and ${ids.at(-1)}::int`);
  }
  return ids;
}

/** The id of a device model for synthetic devices (created once). */
export async function syntheticModelId(db: Db | Tx): Promise<number> {
  await db.execute(sql`insert into device_models (code, name, base_power) values ('SYNTH', 'Synthetic miner', 100) on conflict (code) do nothing`);
  const row = rowsOf<{ id: number }>(await db.execute(sql`select id from device_models where code = 'SYNTH'`))[0];
  if (!row) throw new Error('no synthetic device model');
  return Number(row.id);
}

/** One miner with its device and uptime rows; its power counts in user_power when it runs (status 1 or 3). */
export async function insertMiner(db: Db | Tx, spec: MinerSpec): Promise<{ id: number; deviceId: number | null }> {
  let deviceId: number | null = null;
  if (spec.kind === 'device') {
    const modelId = await syntheticModelId(db);
    const device = rowsOf<{ id: number }>(
      await db.execute(sql`
        insert into devices (serial, public_key, model_id, owner_user_id, bound_at, first_seen_at, last_seen_at)
        values (${`SYN-${tag()}`}, ${randomBytes(32).toString('hex')}, ${modelId}, ${spec.userId}, ${spec.createdAt}, ${spec.firstSeenAt}, ${spec.firstSeenAt})
        returning id`),
    )[0];
    deviceId = Number(device?.id);
    for (const b of spec.beats) {
      await db.execute(sql`insert into device_uptime (device_id, epoch, beats, last_beat_at) values (${deviceId}, ${b.epoch}, ${b.beats}, ${spec.createdAt})`);
    }
  }
  const row = rowsOf<{ id: number }>(
    await db.execute(sql`
      insert into miners (user_id, kind, status, device_id, base_power, gift_power, pay_method, budget_usdt, released_usdt, starts_epoch, ends_epoch, created_at)
      values (${spec.userId}, ${spec.kind}, ${spec.status}, ${deviceId}, ${spec.basePower.toString()}::bigint, ${spec.giftPower.toString()}::bigint,
              ${spec.kind === 'destroy' ? 'balance' : null}, ${spec.budget.toString()}::numeric, ${spec.released.toString()}::numeric,
              ${spec.startsEpoch}, ${spec.endsEpoch}, ${spec.createdAt})
      returning id`),
  )[0];
  const power = spec.status === 1 || spec.status === 3 ? spec.basePower + spec.giftPower : 0n;
  await db.execute(sql`
    insert into user_power (user_id, power, updated_at) values (${spec.userId}, ${power.toString()}::bigint, ${spec.createdAt})
    on conflict (user_id) do update set power = user_power.power + excluded.power`);
  return { id: Number(row?.id), deviceId };
}

export interface SyntheticPopulation {
  users: number;
  /** The epoch the miners are set up for (trials start in it, devices beat in it). */
  epoch: number;
  /** Inside the epoch: when the miners were created. */
  createdAt: Date;
  /** Beats a device needs to count; 90 % of the devices get them, the others fewer. */
  beatsNeeded: number;
}

/**
 * A large population, set-based: `users` users, every fifth of them mining. Of the miners 40 % are
 * devices (nine in ten online enough), 30 % destroy miners (budgets from nearly used up to large;
 * one in ten of their owners has a second one), 30 % trials (ending in the epoch or later).
 * Answers the number of miners.
 */
export async function seedSyntheticPopulation(db: Db | Tx, p: SyntheticPopulation): Promise<number> {
  const ids = await createUsers(db, p.users);
  if (ids.length === 0) return 0;
  const [first, last] = [ids[0] as number, ids.at(-1) as number];
  const modelId = await syntheticModelId(db);
  const run = tag();
  const price = 10n ** 18n;
  // Users u with (u - first) % 5 = 0 mine; k = (u - first) / 5 picks the kind.
  await db.execute(sql`
    insert into devices (serial, public_key, model_id, owner_user_id, bound_at, first_seen_at, last_seen_at)
    select 'SYN-' || ${run} || '-' || u, lpad(${run} || to_hex(u), 64, '0'), ${modelId}::int, u, ${p.createdAt}::timestamptz, ${p.createdAt}::timestamptz, ${p.createdAt}::timestamptz
      from generate_series(${first}::int, ${last}::int) u
     where (u - ${first}) % 5 = 0 and ((u - ${first}) / 5) % 10 < 4`);
  await db.execute(sql`
    insert into device_uptime (device_id, epoch, beats, last_beat_at)
    select d.id, ${p.epoch}::int, case when d.id % 10 = 0 then ${Math.max(0, p.beatsNeeded - 1)}::int else ${p.beatsNeeded}::int end, ${p.createdAt}::timestamptz
      from devices d where d.serial like ${`SYN-${run}-%`}`);
  await db.execute(sql`
    insert into miners (user_id, kind, status, device_id, base_power, gift_power, pay_method, budget_usdt, released_usdt, starts_epoch, ends_epoch, created_at)
    select d.owner_user_id, 'device', 3, d.id, 10000 + (d.id % 7) * 2500, 500, null, 0, 0, ${p.epoch}::int, null, ${p.createdAt}::timestamptz
      from devices d where d.serial like ${`SYN-${run}-%`}`);
  await db.execute(sql`
    insert into miners (user_id, kind, status, device_id, base_power, gift_power, pay_method, destroy_nadi, destroy_price, destroy_usdt, budget_usdt, released_usdt,
                        starts_epoch, ends_epoch, created_at)
    select u, 'destroy', 3, null, div(usdt * 200, ${price.toString()}::numeric), 0, 'balance', usdt, ${price.toString()}::numeric, usdt,
           usdt * 3, case when u % 7 = 0 then usdt * 3 - 1000000000000000 else 0 end, ${p.epoch}::int, null, ${p.createdAt}::timestamptz
      from (select u, (10 + (u % 991)) * ${price.toString()}::numeric as usdt
              from generate_series(${first}::int, ${last}::int) u
             where (u - ${first}) % 5 = 0 and ((u - ${first}) / 5) % 10 between 4 and 6
            union all
            select u, (50 + (u % 13)) * ${price.toString()}::numeric
              from generate_series(${first}::int, ${last}::int) u
             where (u - ${first}) % 5 = 0 and ((u - ${first}) / 5) % 10 = 4 and ((u - ${first}) / 50) % 10 = 0) s`);
  await db.execute(sql`
    insert into miners (user_id, kind, status, device_id, base_power, gift_power, pay_method, budget_usdt, released_usdt, starts_epoch, ends_epoch, created_at)
    select u, 'trial', 1, null, 1000, 0, null, 0, 0, ${p.epoch}::int, ${p.epoch}::int + (u % 7), ${p.createdAt}::timestamptz
      from generate_series(${first}::int, ${last}::int) u
     where (u - ${first}) % 5 = 0 and ((u - ${first}) / 5) % 10 >= 7`);
  await db.execute(sql`
    insert into user_power (user_id, power, updated_at)
    select user_id, sum(base_power + gift_power), ${p.createdAt}::timestamptz from miners
     where user_id between ${first}::int and ${last}::int and status in (1, 3) group by user_id
    on conflict (user_id) do update set power = user_power.power + excluded.power`);
  const count = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from miners where user_id between ${first}::int and ${last}::int`))[0];
  return Number(count?.n ?? 0);
}

export interface TierSpec {
  levelId: number;
  giftPower: bigint;
  machineRateBps: number;
  withdrawRate: number;
}

/** A node tier (tests use level ids the seed does not, so that its tiers stay as they are). */
export async function insertNodeTier(db: Db | Tx, t: TierSpec): Promise<number> {
  const row = rowsOf<{ id: number }>(
    await db.execute(sql`
      insert into node_tiers (level_id, name, price_usdt, total_quota, per_user_limit, gift_power, machine_rate_bps, withdraw_rate)
      values (${t.levelId}, ${`T${t.levelId}`}, ${(100n * 10n ** 18n).toString()}::numeric, 1000000, 1000, ${t.giftPower.toString()}::bigint,
              ${t.machineRateBps}, ${t.withdrawRate})
      returning id`),
  )[0];
  return Number(row?.id);
}

/** A node bought at `createdAt`: the holding and its running miner (kind node, the tier's gift power). */
export async function insertHolding(db: Db | Tx, h: { userId: number; tierId: number; giftPower: bigint; createdAt: Date; epoch: number }) {
  const miner = await insertMiner(db, {
    userId: h.userId,
    kind: 'node',
    status: 3,
    basePower: h.giftPower,
    giftPower: 0n,
    startsEpoch: h.epoch,
    endsEpoch: null,
    createdAt: h.createdAt,
    firstSeenAt: null,
    budget: 0n,
    released: 0n,
    beats: [],
  });
  const row = rowsOf<{ id: number }>(
    await db.execute(sql`
      insert into user_nodes (user_id, tier_id, pay_method, pay_asset, pay_amount, request_key, miner_id, created_at)
      values (${h.userId}, ${h.tierId}, 'credit', 'USDT', ${(100n * 10n ** 18n).toString()}::numeric, ${`synthetic:${tag()}`}, ${miner.id}, ${h.createdAt})
      returning id`),
  )[0];
  return { id: Number(row?.id), minerId: miner.id };
}

export interface ProductSpec {
  kind: 'flexible' | 'locked' | 'joint' | 'node';
  termEpochs: number;
  dayRatePpm: number;
  epochBudget: bigint | null;
}

/** A savings product open for a year, its pool cap out of reach; `total` is set by setProductTotals. */
export async function insertPledgeProduct(db: Db | Tx, p: ProductSpec, startsAt: Date): Promise<number> {
  const row = rowsOf<{ id: number }>(
    await db.execute(sql`
      insert into pledge_products (kind, name, term_epochs, min_pledge, day_rate_ppm, epoch_budget, pool_cap, starts_at, ends_at)
      values (${p.kind}, ${`synthetic ${p.kind}`}, ${p.termEpochs}, 1, ${p.dayRatePpm}, ${p.epochBudget === null ? null : p.epochBudget.toString()}::numeric,
              ${(10n ** 40n).toString()}::numeric, ${startsAt}, ${new Date(startsAt.getTime() + 365 * 86_400_000)})
      returning id`),
  )[0];
  return Number(row?.id);
}

export interface PositionSpec {
  userId: number;
  productId: number;
  amount: bigint;
  dayRatePpm: number;
  startEpoch: number;
  endEpoch: number | null;
  /** Joined at (its miner's creation); redeemed at, for a flexible position its owner redeemed. */
  createdAt: Date;
  redeemedAt: Date | null;
}

/** A savings position and its miner (kind pledge, 1 cP per whole NADI; running while active). */
export async function insertPosition(db: Db | Tx, p: PositionSpec): Promise<{ id: number; minerId: number; power: bigint }> {
  const power = p.amount / 10n ** 18n;
  const miner = await insertMiner(db, {
    userId: p.userId,
    kind: 'pledge',
    status: p.redeemedAt ? 2 : 3,
    basePower: power,
    giftPower: 0n,
    startsEpoch: Math.max(0, p.startEpoch - 1),
    endsEpoch: null,
    createdAt: p.createdAt,
    firstSeenAt: null,
    budget: 0n,
    released: 0n,
    beats: [],
  });
  const row = rowsOf<{ id: number }>(
    await db.execute(sql`
      insert into pledge_positions (user_id, product_id, amount, day_rate_ppm, start_epoch, end_epoch, status, request_key, miner_id, created_at, redeemed_at)
      values (${p.userId}, ${p.productId}, ${p.amount.toString()}::numeric, ${p.dayRatePpm}, ${p.startEpoch}, ${p.endEpoch},
              ${p.redeemedAt ? 'redeemed' : 'active'}, ${`synthetic:${tag()}`}, ${miner.id}, ${p.createdAt}, ${p.redeemedAt})
      returning id`),
  )[0];
  return { id: Number(row?.id), minerId: miner.id, power };
}

/** Each product's total = its active principal, and the pledged account holds all of it (as the joins left them). */
export async function settlePledgedPrincipal(db: Db | Tx): Promise<void> {
  await db.execute(sql`
    update pledge_products pr set total = coalesce((select sum(amount) from pledge_positions p where p.product_id = pr.id and p.status = 'active'), 0)`);
  await db.execute(sql`
    select ledger_post_flows(jsonb_build_array(jsonb_build_object(
      'key', ${`synthetic:pledged:${tag()}`}::text, 'user_id', null, 'type', 'balance_savings', 'params_hash', 'synthetic',
      'legs', jsonb_build_array(jsonb_build_object(
        'type', 'balance_savings', 'asset', 'NADI', 'amount', (p.owed - a.available)::text,
        'debit_ref', 'system:treasury:NADI', 'debit_user', null, 'debit_kind', 'treasury', 'debit_part', 'available',
        'credit_ref', 'system:pledged:NADI', 'credit_user', null, 'credit_kind', 'pledged', 'credit_part', 'available', 'memo', null)))), now())
      from (select coalesce(sum(amount), 0) as owed from pledge_positions where status = 'active') p,
           ledger_accounts a
     where a.user_id is null and a.kind = 'pledged' and a.asset = 'NADI' and p.owed > a.available`);
}

export interface SyntheticRewards {
  /** The users (ids first..last, e.g. from seedSyntheticPopulation) the holders and savers are taken from. */
  first: number;
  last: number;
  /** Users holding a node (the first ones): T1 70 %, T2 15 %, T3 8 %, T4 5 %, T5 2 %; one in ten also a second T1. */
  holders: number;
  /** Savings positions, three per user from the first one: flexible, locked 30 (a thirtieth ends each epoch), joint or node. */
  positions: number;
  epoch: number;
  createdAt: Date;
}

/** The default tiers (docs/nodes-and-savings.md) where the database has none of that level yet. */
async function ensureTiers(db: Db | Tx): Promise<void> {
  const unit = 10n ** 18n;
  await db.execute(sql`
    insert into node_tiers (level_id, name, price_usdt, total_quota, per_user_limit, gift_power, machine_rate_bps, withdraw_rate)
    select level, 'T' || level, price * ${unit.toString()}::numeric, 1000000000, 5, gift, rate, weight
      from (values (1, 100, 5000, 200, 1), (2, 500, 30000, 400, 6), (3, 1000, 70000, 600, 13), (4, 2500, 160000, 800, 30), (5, 5000, 300000, 1000, 60))
           as t(level, price, gift, rate, weight)
    on conflict (level_id) do nothing`);
}

/**
 * Node holders and savings positions, set-based, each with its running miner (power log rows are not
 * written: the settlement does not read them), the products' totals, the pledged principal in the
 * `pledged` account, and fees credited during the epoch (1 USDT and 0.1 NADI per holder). Answers
 * what it created.
 */
export async function seedSyntheticRewards(db: Db | Tx, p: SyntheticRewards): Promise<{ holdings: number; positions: number }> {
  const run = tag();
  const holdersLast = Math.min(p.last, p.first + p.holders - 1);
  await ensureTiers(db);
  return db.transaction(async (tx) => {
    // Miner ids are drawn first so that each holding and position names its miner.
    await tx.execute(sql`
      create temp table synthetic_holdings on commit drop as
      select nextval(pg_get_serial_sequence('miners', 'id')) as miner_id, s.u as user_id, t.id as tier_id, t.gift_power, t.price_usdt
        from (select u, case when (u - ${p.first}) % 100 < 70 then 1 when (u - ${p.first}) % 100 < 85 then 2 when (u - ${p.first}) % 100 < 93 then 3
                             when (u - ${p.first}) % 100 < 98 then 4 else 5 end as level
                from generate_series(${p.first}::int, ${holdersLast}::int) u
              union all
              select u, 1 from generate_series(${p.first}::int, ${holdersLast}::int) u where (u - ${p.first}) % 10 = 0) s
        join node_tiers t on t.level_id = s.level`);
    await tx.execute(sql`
      insert into miners (id, user_id, kind, status, base_power, gift_power, budget_usdt, released_usdt, starts_epoch, created_at)
      select miner_id, user_id, 'node', 3, gift_power, 0, 0, 0, ${p.epoch}::int, ${p.createdAt}::timestamptz from synthetic_holdings order by miner_id`);
    await tx.execute(sql`
      insert into user_nodes (user_id, tier_id, pay_method, pay_asset, pay_amount, miner_id, created_at)
      select user_id, tier_id, 'credit', 'USDT', price_usdt, miner_id, ${p.createdAt}::timestamptz from synthetic_holdings order by miner_id`);
    const products = await syntheticProducts(tx, run, p.createdAt);
    await tx.execute(sql`
      create temp table synthetic_positions on commit drop as
      select nextval(pg_get_serial_sequence('miners', 'id')) as miner_id, ${p.first}::int + g / 3 as user_id, g,
             (array[${products.flexible}::int, ${products.locked}::int, case when (g / 3) % 2 = 0 then ${products.joint}::int else ${products.node}::int end])[g % 3 + 1] as product_id,
             (100 + g % 997) * 1000000000000000000::numeric as amount
        from generate_series(0, ${p.positions}::int - 1) g
       where ${p.first}::int + g / 3 <= ${p.last}::int`);
    await tx.execute(sql`
      insert into miners (id, user_id, kind, status, base_power, gift_power, budget_usdt, released_usdt, starts_epoch, created_at)
      select miner_id, user_id, 'pledge', 3, div(amount, 1000000000000000000), 0, 0, 0, ${p.epoch}::int, ${p.createdAt}::timestamptz
        from synthetic_positions order by miner_id`);
    await tx.execute(sql`
      insert into pledge_positions (user_id, product_id, amount, day_rate_ppm, start_epoch, end_epoch, status, request_key, miner_id, created_at)
      select s.user_id, s.product_id, s.amount, pr.day_rate_ppm, ${p.epoch}::int,
             case when pr.kind = 'locked' then ${p.epoch}::int + (s.g / 3) % 30 end, 'active', ${`synthetic:${run}:`} || s.g, s.miner_id, ${p.createdAt}::timestamptz
        from synthetic_positions s join pledge_products pr on pr.id = s.product_id order by s.g`);
    await tx.execute(sql`
      insert into user_power (user_id, power, updated_at)
      select user_id, sum(power), ${p.createdAt}::timestamptz
        from (select user_id, gift_power as power from synthetic_holdings union all select user_id, div(amount, 1000000000000000000) from synthetic_positions) x
       group by user_id
      on conflict (user_id) do update set power = user_power.power + excluded.power`);
    await settlePledgedPrincipal(tx);
    await creditSyntheticFees(tx, BigInt(holdersLast - p.first + 1), p.createdAt);
    const counts = rowsOf<{ h: number; p: number }>(
      await tx.execute(sql`select (select count(*)::int from synthetic_holdings) as h, (select count(*)::int from synthetic_positions) as p`),
    )[0];
    return { holdings: Number(counts?.h ?? 0), positions: Number(counts?.p ?? 0) };
  });
}

async function syntheticProducts(tx: Tx, run: string, startsAt: Date): Promise<Record<'flexible' | 'locked' | 'joint' | 'node', number>> {
  const unit = 10n ** 18n;
  const specs: [ProductSpec['kind'], number, number, bigint | null][] = [
    ['flexible', 0, 300, null],
    ['locked', 30, 600, null],
    ['joint', 0, 0, 10_000n * unit],
    ['node', 0, 1_200, null],
  ];
  const ids = {} as Record<ProductSpec['kind'], number>;
  for (const [kind, termEpochs, dayRatePpm, epochBudget] of specs) {
    ids[kind] = await insertPledgeProduct(tx, { kind, termEpochs, dayRatePpm, epochBudget }, startsAt);
  }
  await tx.execute(sql`update pledge_products set name = name || ${` ${run}`} where id in (${ids.flexible}, ${ids.locked}, ${ids.joint}, ${ids.node})`);
  return ids;
}

/** Fees credited at `at`, as trades and withdrawals would: `holders` USDT and a tenth of that in NADI. */
export async function creditSyntheticFees(db: Db | Tx, holders: bigint, at: Date): Promise<void> {
  const unit = 10n ** 18n;
  const leg = (asset: string, amount: bigint) => ({
    ...{ type: 'trade_fee', asset, amount: amount.toString(), memo: null },
    ...{ debit_ref: `system:treasury:${asset}`, debit_user: null, debit_kind: 'treasury', debit_part: 'available' },
    ...{ credit_ref: `system:fees:${asset}`, credit_user: null, credit_kind: 'fees', credit_part: 'available' },
  });
  if (holders <= 0n) return;
  const flow = {
    key: `synthetic:fees:${tag()}`,
    user_id: null,
    type: 'trade_fee',
    params_hash: 'synthetic',
    legs: [leg('USDT', holders * unit), leg('NADI', (holders * unit) / 10n)],
  };
  await db.execute(sql`select ledger_post_flows(${JSON.stringify([flow])}::jsonb, ${at}::timestamptz)`);
}

/**
 * Users in an invite tree, for tests: `parents[i]` is the index (below i) of user i's referrer among
 * the users created here, or null for a root. Each gets the ledger accounts, `users.referrer_id` and
 * the closure rows registration writes (user_ancestors). Answers the ids in the order of `parents`.
 */
export async function createTree(db: Db | Tx, parents: readonly (number | null)[]): Promise<number[]> {
  parents.forEach((p, i) => {
    if (p !== null && (!Number.isInteger(p) || p < 0 || p >= i)) throw new Error(`the referrer of user ${i} must be an earlier user, not ${p}`);
  });
  const ids = await createUsers(db, parents.length);
  const pairs = parents.flatMap((p, i) => (p === null ? [] : [[ids[i] as number, ids[p] as number] as const]));
  if (pairs.length === 0) return ids;
  const list = (values: number[]) => `{${values.join(',')}}`;
  await db.execute(sql`
    update users u set referrer_id = p.referrer_id
      from unnest(${list(pairs.map(([id]) => id))}::int[], ${list(pairs.map(([, r]) => r))}::int[]) as p(id, referrer_id)
     where u.id = p.id`);
  await db.execute(sql`
    insert into user_ancestors (ancestor_id, user_id, depth)
    with recursive up as (
      select id as user_id, referrer_id as ancestor_id, 1 as depth from users where id = any(${list(ids)}::int[]) and referrer_id is not null
      union all
      select up.user_id, u.referrer_id, up.depth + 1 from up join users u on u.id = up.ancestor_id where u.referrer_id is not null
    )
    select ancestor_id, user_id, depth from up order by user_id, depth`);
  // The team counts registrations keep (addTeamMember): purchases check that every ancestor has its row.
  await db.execute(sql`
    insert into user_performance (user_id, direct_count, team_size, updated_at)
    select ancestor_id, count(*) filter (where depth = 1)::int, count(*)::int, now()
      from user_ancestors where user_id = any(${list(ids)}::int[]) group by ancestor_id
    on conflict (user_id) do update
      set direct_count = user_performance.direct_count + excluded.direct_count, team_size = user_performance.team_size + excluded.team_size`);
  return ids;
}

export interface SyntheticTeam {
  /** The users (ids first..last, consecutive, e.g. from seedSyntheticPopulation) to put in one tree. */
  first: number;
  last: number;
  /** Children per user at each depth from the root (the last repeats): the tree's shape. */
  fanouts: readonly number[];
  /** When the purchases were made (before the epoch's end), and when the late ones were (after it). */
  boughtAt: Date;
  lateAt: Date;
}

/**
 * One invite tree over existing users, set-based (breadth first: the root is `first`, then each depth's
 * users in id order, the j-th child of a depth under its (j ÷ fanout)-th user), with purchase performance:
 * every user down to depth 4 and every third below bought 100–1,000 USDT (so that the upper users reach
 * V1–V5 and the lower ones mostly stay V0), one in a hundred bought 500 USDT more after the epoch's end
 * (performance_events, so that the settlement's "as of the end" takes it out again). The aggregates
 * (user_performance with its counts) are computed from the closure rows. Answers the tree's depth and rows.
 */
export async function seedSyntheticTeam(db: Db | Tx, t: SyntheticTeam): Promise<{ depth: number; closureRows: number; buyers: number }> {
  const count = t.last - t.first + 1;
  const levels: { start: number; size: number; fanout: number }[] = [];
  for (let start = 0, size = 1, d = 0; start < count; d += 1) {
    const fanout = t.fanouts[Math.min(d, t.fanouts.length - 1)] ?? 2;
    levels.push({ start: t.first + start, size: Math.min(size, count - start), fanout });
    start += size;
    size *= fanout;
  }
  for (const [d, level] of levels.entries()) {
    if (d === 0) continue;
    const parent = levels[d - 1] as (typeof levels)[number];
    const [from, to] = [level.start, level.start + level.size - 1];
    await db.execute(
      sql`update users set referrer_id = ${parent.start}::int + (id - ${from}::int) / ${parent.fanout}::int where id between ${from}::int and ${to}::int`,
    );
    await db.execute(sql`
      insert into user_ancestors (ancestor_id, user_id, depth)
      select u.referrer_id, u.id, 1 from users u where u.id between ${from}::int and ${to}::int
      union all
      select a.ancestor_id, u.id, a.depth + 1 from users u join user_ancestors a on a.user_id = u.referrer_id where u.id between ${from}::int and ${to}::int`);
  }
  const unit = (10n ** 18n).toString();
  const shallow = (levels[Math.min(4, levels.length - 1)] as (typeof levels)[number]).start + (levels[Math.min(4, levels.length - 1)]?.size ?? 0);
  await db.execute(sql`
    insert into performance_events (user_id, kind, ref, usdt, created_at)
    select u, 'device', 'synthetic:' || u, (100 + (u % 10) * 100) * ${unit}::numeric, ${t.boughtAt}::timestamptz
      from generate_series(${t.first}::int, ${t.last}::int) u where u < ${shallow}::int or (u - ${t.first}::int) % 3 = 0
    union all
    select u, 'device', 'synthetic:late:' || u, 500 * ${unit}::numeric, ${t.lateAt}::timestamptz
      from generate_series(${t.first}::int, ${t.last}::int) u where (u - ${t.first}::int) % 100 = 7`);
  await db.execute(sql`
    insert into user_performance (user_id, me_performance, team_performance, direct_count, active_directs, team_size, updated_at)
    with me as (
      select u.id as user_id, coalesce(sum(e.usdt), 0) as me
        from users u left join performance_events e on e.user_id = u.id
       where u.id between ${t.first}::int and ${t.last}::int group by u.id
    ), team as (
      select a.ancestor_id as user_id, sum(m.me) as team, count(*)::int as size,
             count(*) filter (where a.depth = 1)::int as directs, count(*) filter (where a.depth = 1 and m.me > 0)::int as active
        from user_ancestors a join me m on m.user_id = a.user_id group by a.ancestor_id
    )
    select m.user_id, m.me, coalesce(t.team, 0), coalesce(t.directs, 0), coalesce(t.active, 0), coalesce(t.size, 0), ${t.boughtAt}::timestamptz
      from me m left join team t on t.user_id = m.user_id
    on conflict (user_id) do update set me_performance = excluded.me_performance, team_performance = excluded.team_performance,
      direct_count = excluded.direct_count, active_directs = excluded.active_directs, team_size = excluded.team_size`);
  const stats = rowsOf<{ rows: number; buyers: number }>(
    await db.execute(sql`select (select count(*)::int from user_ancestors where user_id between ${t.first}::int and ${t.last}::int) as rows,
                                (select count(*)::int from user_performance where user_id between ${t.first}::int and ${t.last}::int and me_performance > 0) as buyers`),
  )[0];
  return { depth: levels.length - 1, closureRows: Number(stats?.rows ?? 0), buyers: Number(stats?.buyers ?? 0) };
}

/** `amount` from the treasury to every user's fund NADI account, in one flow posted set-based (benches and tests of user actions). */
export async function fundEveryone(db: Db, amount: bigint, key: string): Promise<void> {
  await db.transaction(async (tx) => {
    const flow = rowsOf<{ id: string }>(await tx.execute(sql`select ledger_open_flow(${key}, null, 'data_adjustment', '{}'::json, now())::text as id`))[0]?.id;
    await tx.execute(sql`select ledger_legs_prepare()`);
    await tx.execute(sql`
      insert into ledger_legs_in (ord, flow_id, type, asset, amount, debit_id, debit_part, credit_id, credit_part, memo)
      select a.user_id, ${flow}::bigint, 'data_adjustment', 'NADI', ${amount.toString()}::numeric,
             (select id from ledger_accounts where user_id is null and kind = 'treasury' and asset = 'NADI'), 'available', a.id, 'available', null
        from ledger_accounts a where a.user_id is not null and a.kind = 'fund' and a.asset = 'NADI'`);
    await tx.execute(sql`select ledger_post_legs(now())`);
  });
}
