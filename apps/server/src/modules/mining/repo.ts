// The mining user API's reads. Amounts and power come back as text and become bigint here.
import { sql, type SQL } from 'drizzle-orm';
import { listedMinerKinds, type IncomeLineType, type ListedMinerKind, type MinerKind, type PowerLogType } from '@nadi/api/mining';
import type { Db, Tx } from '../../db/client.ts';
import { sqlList } from '../../db/sql-list.ts';
import { rowsOf } from '../../db/rows.ts';
import { deviceFacts, type DeviceFacts } from '../device/index.ts';

const big = (text: string | null | undefined): bigint => (text == null ? 0n : BigInt(text));
const date = (value: Date | string): Date => new Date(value);

/** The available part of one account (0 when it does not exist); userId null names a system account. */

export async function readUserPower(db: Db, userId: number): Promise<bigint> {
  const rows = rowsOf<{ power: string }>(await db.execute(sql`select power::text as power from user_power where user_id = ${userId}`));
  return big(rows[0]?.power);
}

/** Σ user_power: one aggregate over every user with power (a scan of user_power: O(users) per call). */
export async function readNetworkPower(db: Db): Promise<bigint> {
  const rows = rowsOf<{ power: string | null }>(await db.execute(sql`select sum(power)::text as power from user_power`));
  return big(rows[0]?.power);
}

export async function readIncomeTotal(db: Db, userId: number): Promise<bigint> {
  const rows = rowsOf<{ total: string | null }>(
    await db.execute(sql`select sum(immediate + locked)::text as total from mining_results where user_id = ${userId}`),
  );
  return big(rows[0]?.total);
}

export interface VestingRow {
  locked: bigint;
  claimable: bigint;
  claimed: bigint;
}

export async function readVesting(db: Db | Tx, userId: number): Promise<VestingRow> {
  const rows = rowsOf<{ locked: string; claimable: string; claimed: string }>(
    await db.execute(sql`select locked::text as locked, claimable::text as claimable, claimed::text as claimed from mining_vesting where user_id = ${userId}`),
  );
  const row = rows[0];
  return { locked: big(row?.locked), claimable: big(row?.claimable), claimed: big(row?.claimed) };
}

/**
 * Moves a claimed amount from claimable to claimed when the row still holds it; false when a
 * concurrent claim took it first (the caller then rolls back its flow).
 */
export async function markClaimed(tx: Tx, userId: number, amount: bigint): Promise<boolean> {
  const rows = rowsOf<{ user_id: number }>(
    await tx.execute(
      sql`update mining_vesting set claimable = claimable - ${amount.toString()}::numeric, claimed = claimed + ${amount.toString()}::numeric
          where user_id = ${userId} and claimable >= ${amount.toString()}::numeric returning user_id`,
    ),
  );
  return rows.length > 0;
}

export async function readLastSettledEpoch(db: Db): Promise<number | null> {
  const rows = rowsOf<{ epoch: number | null }>(await db.execute(sql`select max(epoch) as epoch from mining_epochs where settled_at is not null`));
  const epoch = rows[0]?.epoch;
  return epoch == null ? null : Number(epoch);
}

export async function readTrial(db: Db, userId: number): Promise<{ status: number; endsEpoch: number | null } | null> {
  const rows = rowsOf<{ status: number; ends_epoch: number | null }>(
    await db.execute(sql`select status, ends_epoch from miners where user_id = ${userId} and kind = 'trial'`),
  );
  const row = rows[0];
  return row ? { status: Number(row.status), endsEpoch: row.ends_epoch == null ? null : Number(row.ends_epoch) } : null;
}

export interface MinerRow {
  id: number;
  kind: MinerKind;
  status: 1 | 2 | 3 | 4;
  basePower: bigint;
  giftPower: bigint;
  payMethod: string | null;
  destroyNadi: bigint | null;
  destroyPrice: bigint | null;
  destroyUsdt: bigint | null;
  budgetUsdt: bigint;
  releasedUsdt: bigint;
  endsEpoch: number | null;
  createdAt: Date;
  device: { serial: string; model: string; lastSeenAt: Date | null; beats: number } | null;
}

interface RawMiner {
  id: string;
  kind: MinerKind;
  status: number;
  base_power: string;
  gift_power: string;
  pay_method: string | null;
  destroy_nadi: string | null;
  destroy_price: string | null;
  destroy_usdt: string | null;
  budget_usdt: string;
  released_usdt: string;
  ends_epoch: number | null;
  created_at: Date | string;
  device_id: string | number | null;
}

function toMiner(r: RawMiner, devices: Map<number, DeviceFacts>): MinerRow {
  const d = r.device_id == null ? undefined : devices.get(Number(r.device_id));
  return {
    id: Number(r.id),
    kind: r.kind,
    status: Number(r.status) as MinerRow['status'],
    basePower: BigInt(r.base_power),
    giftPower: BigInt(r.gift_power),
    payMethod: r.pay_method,
    destroyNadi: r.destroy_nadi == null ? null : BigInt(r.destroy_nadi),
    destroyPrice: r.destroy_price == null ? null : BigInt(r.destroy_price),
    destroyUsdt: r.destroy_usdt == null ? null : BigInt(r.destroy_usdt),
    budgetUsdt: BigInt(r.budget_usdt),
    releasedUsdt: BigInt(r.released_usdt),
    endsEpoch: r.ends_epoch == null ? null : Number(r.ends_epoch),
    createdAt: date(r.created_at),
    device: d === undefined ? null : { serial: d.serial, model: d.model, lastSeenAt: d.lastSeenAt, beats: d.beats },
  };
}

function minerSelect(where: SQL): SQL {
  return sql`
    select m.id::text as id, m.kind, m.status, m.base_power::text as base_power, m.gift_power::text as gift_power, m.pay_method,
           m.destroy_nadi::text as destroy_nadi, m.destroy_price::text as destroy_price, m.destroy_usdt::text as destroy_usdt,
           m.budget_usdt::text as budget_usdt, m.released_usdt::text as released_usdt, m.ends_epoch, m.created_at, m.device_id
      from miners m
     where ${where}`;
}

/** Miners with their device's facts (serial, model, last heartbeat, this epoch's beats) from device/index.ts. */
async function withDevices(db: Db, raw: RawMiner[], epoch: number): Promise<MinerRow[]> {
  const devices = await deviceFacts(
    db,
    raw.flatMap((r) => (r.device_id == null ? [] : [Number(r.device_id)])),
    epoch,
  );
  return raw.map((r) => toMiner(r, devices));
}

/** A user's miners, newest first, with their device and this epoch's beats. */
export async function listMiners(db: Db, userId: number, kind: ListedMinerKind | undefined, epoch: number, offset: number, limit: number) {
  const kinds = kind ? [kind] : [...listedMinerKinds];
  const where = sql`m.user_id = ${userId} and m.kind in (${sqlList(kinds)})`;
  const [rows, count] = await Promise.all([
    db.execute(sql`${minerSelect(where)} order by m.id desc limit ${limit} offset ${offset}`),
    db.execute(sql`select count(*)::int as total from miners m where ${where}`),
  ]);
  return { rows: await withDevices(db, rowsOf<RawMiner>(rows), epoch), total: Number(rowsOf<{ total: number }>(count)[0]?.total ?? 0) };
}

export async function findMinerByFlow(db: Db, flowId: number): Promise<MinerRow | null> {
  const rows = await withDevices(db, rowsOf<RawMiner>(await db.execute(minerSelect(sql`m.flow_id = ${flowId}`))), -1);
  return rows[0] ?? null;
}

export async function listPowerLog(db: Db, userId: number, type: PowerLogType | undefined, offset: number, limit: number) {
  const where = type ? sql`user_id = ${userId} and type = ${type}` : sql`user_id = ${userId}`;
  const [rows, count] = await Promise.all([
    db.execute(sql`
      select id::text as id, type, before::text as before, after::text as after, miner_id::text as miner_id, created_at
        from power_log where ${where} order by id desc limit ${limit} offset ${offset}`),
    db.execute(sql`select count(*)::int as total from power_log where ${where}`),
  ]);
  const list = rowsOf<{ id: string; type: PowerLogType; before: string; after: string; miner_id: string | null; created_at: Date | string }>(rows).map((r) => ({
    id: Number(r.id),
    type: r.type,
    before: BigInt(r.before),
    after: BigInt(r.after),
    minerId: r.miner_id == null ? null : Number(r.miner_id),
    createdAt: date(r.created_at),
  }));
  return { rows: list, total: Number(rowsOf<{ total: number }>(count)[0]?.total ?? 0) };
}

export interface IncomeRow {
  epoch: number;
  settledAt: Date;
  devicePower: bigint;
  destroyPower: bigint;
  otherPower: bigint;
  deviceIncome: bigint;
  destroyIncome: bigint;
  powerIncome: bigint;
  reduction: bigint;
  immediate: bigint;
  locked: bigint;
  released: bigint;
  networkPower: bigint;
  emission: bigint;
  payable: bigint;
  price: bigint;
}

const incomeColumns: Record<IncomeLineType, SQL> = {
  device_income: sql`r.device_income`,
  destroy_profit: sql`r.destroy_income`,
  power_income: sql`r.power_income`,
  income_reduction: sql`r.reduction`,
};

function incomeSelect(where: SQL): SQL {
  return sql`
    select r.epoch, coalesce(e.settled_at, e.computed_at) as settled_at, r.device_power::text as device_power, r.destroy_power::text as destroy_power, r.other_power::text as other_power,
           r.device_income::text as device_income, r.destroy_income::text as destroy_income, r.power_income::text as power_income,
           r.reduction::text as reduction, r.immediate::text as immediate, r.locked::text as locked, r.released::text as released,
           e.network_power::text as network_power, e.emission::text as emission, e.payable::text as payable, e.price::text as price
      from mining_results r
      join mining_epochs e on e.epoch = r.epoch
     where ${where}`;
}

function toIncome(r: Record<string, string | number | Date>): IncomeRow {
  const b = (key: string) => BigInt(String(r[key]));
  return {
    epoch: Number(r.epoch),
    settledAt: date(r.settled_at as Date | string),
    devicePower: b('device_power'),
    destroyPower: b('destroy_power'),
    otherPower: b('other_power'),
    deviceIncome: b('device_income'),
    destroyIncome: b('destroy_income'),
    powerIncome: b('power_income'),
    reduction: b('reduction'),
    immediate: b('immediate'),
    locked: b('locked'),
    released: b('released'),
    networkPower: b('network_power'),
    emission: b('emission'),
    payable: b('payable'),
    price: b('price'),
  };
}

/** A user's settled epochs, newest first; with a type, only epochs where that line is above zero. */
export async function listIncome(db: Db, userId: number, type: IncomeLineType | undefined, offset: number, limit: number) {
  const where = type ? sql`r.user_id = ${userId} and ${incomeColumns[type]} > 0` : sql`r.user_id = ${userId}`;
  const [rows, count] = await Promise.all([
    db.execute(sql`${incomeSelect(where)} order by r.epoch desc limit ${limit} offset ${offset}`),
    db.execute(sql`select count(*)::int as total from mining_results r where ${where}`),
  ]);
  return { rows: rowsOf<Record<string, string | number | Date>>(rows).map(toIncome), total: Number(rowsOf<{ total: number }>(count)[0]?.total ?? 0) };
}

export async function findIncome(db: Db, userId: number, epoch: number): Promise<IncomeRow | null> {
  const rows = rowsOf<Record<string, string | number | Date>>(await db.execute(incomeSelect(sql`r.user_id = ${userId} and r.epoch = ${epoch}`)));
  return rows[0] ? toIncome(rows[0]) : null;
}

/** The user's tranches (locked part of each epoch's income) settled in [from, to]. */
export async function readTranches(db: Db, userId: number, from: number, to: number): Promise<{ epoch: number; locked: bigint }[]> {
  const rows = rowsOf<{ epoch: number; locked: string }>(
    await db.execute(sql`
      select epoch, locked::text as locked from mining_results
       where user_id = ${userId} and epoch between ${from} and ${to} and locked > 0 order by epoch`),
  );
  return rows.map((r) => ({ epoch: Number(r.epoch), locked: BigInt(r.locked) }));
}

export interface DestroyOrderRow {
  price: bigint;
  valueUsdt: bigint;
}

export async function insertDestroyOrder(tx: Tx, orderId: number, order: DestroyOrderRow): Promise<void> {
  await tx.execute(
    sql`insert into destroy_orders (order_id, price, value_usdt) values (${orderId}, ${order.price.toString()}::numeric, ${order.valueUsdt.toString()}::numeric)`,
  );
}

export async function readDestroyOrder(tx: Tx, orderId: number): Promise<DestroyOrderRow | null> {
  const rows = rowsOf<{ price: string; value_usdt: string }>(
    await tx.execute(sql`select price::text as price, value_usdt::text as value_usdt from destroy_orders where order_id = ${orderId}`),
  );
  const row = rows[0];
  return row ? { price: BigInt(row.price), valueUsdt: BigInt(row.value_usdt) } : null;
}
