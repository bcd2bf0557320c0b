// Synthetic mining populations for the settlement's tests and benchmark (never used by the app):
// users with their ledger accounts, miners of every kind with the rows that go with them (device,
// uptime, power), node holdings and savings positions with their miners, row by row for small test
// populations or set-based for large ones.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/client.ts';
import { rowsOf } from '../../../db/rows.ts';

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
