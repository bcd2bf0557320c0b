// The savings tables (migration 0015): products, positions with their pledge miners, and the claimable
// interest. Amounts come back as text and become bigint here; every read of a position names its owner.
import { sql, type SQL } from 'drizzle-orm';
import type { PledgeKind } from '@nadi/api/pledge';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

const big = (text: string | null | undefined): bigint => (text == null ? 0n : BigInt(text));
const date = (value: Date | string): Date => new Date(value);
const dateOrNull = (value: Date | string | null): Date | null => (value == null ? null : new Date(value));

export interface ProductRow {
  id: number;
  kind: PledgeKind;
  name: string;
  termEpochs: number;
  minPledge: bigint;
  dayRatePpm: bigint;
  epochBudget: bigint | null;
  poolCap: bigint;
  total: bigint;
  startsAt: Date;
  endsAt: Date;
  isEnabled: boolean;
}

interface RawProduct {
  id: number;
  kind: PledgeKind;
  name: string;
  term_epochs: number;
  min_pledge: string;
  day_rate_ppm: number;
  epoch_budget: string | null;
  pool_cap: string;
  total: string;
  starts_at: Date | string;
  ends_at: Date | string;
  is_enabled: boolean;
}

function toProduct(r: RawProduct): ProductRow {
  return {
    id: Number(r.id),
    kind: r.kind,
    name: r.name,
    termEpochs: Number(r.term_epochs),
    minPledge: BigInt(r.min_pledge),
    dayRatePpm: BigInt(r.day_rate_ppm),
    epochBudget: r.epoch_budget == null ? null : BigInt(r.epoch_budget),
    poolCap: BigInt(r.pool_cap),
    total: BigInt(r.total),
    startsAt: date(r.starts_at),
    endsAt: date(r.ends_at),
    isEnabled: r.is_enabled,
  };
}

const productColumns = sql`p.id, p.kind, p.name, p.term_epochs, p.min_pledge::text as min_pledge, p.day_rate_ppm, p.epoch_budget::text as epoch_budget,
  p.pool_cap::text as pool_cap, p.total::text as total, p.starts_at, p.ends_at, p.is_enabled`;

/** Every product in display order; the list is a handful of rows (one per product the operator offers). */
export async function listProducts(db: Db): Promise<ProductRow[]> {
  return rowsOf<RawProduct>(await db.execute(sql`select ${productColumns} from pledge_products p order by p.sort, p.id`)).map(toProduct);
}

export async function findProduct(db: Db | Tx, id: number): Promise<ProductRow | null> {
  const rows = rowsOf<RawProduct>(await db.execute(sql`select ${productColumns} from pledge_products p where p.id = ${id}`));
  return rows[0] ? toProduct(rows[0]) : null;
}

/**
 * Adds a pledge to its product's total when the cap still has room: one conditional update, so
 * parallel joins never take the pool beyond its cap. Answers false when it has not.
 */
export async function takeCap(tx: Tx, productId: number, amount: bigint): Promise<boolean> {
  const rows = rowsOf<{ id: number }>(
    await tx.execute(sql`
      update pledge_products set total = total + ${amount.toString()}::numeric
       where id = ${productId} and total + ${amount.toString()}::numeric <= pool_cap
      returning id`),
  );
  return rows.length > 0;
}

/** A redeemed principal leaves its product's total. */
export async function releaseCap(tx: Tx, productId: number, amount: bigint): Promise<void> {
  await tx.execute(sql`update pledge_products set total = total - ${amount.toString()}::numeric where id = ${productId}`);
}

export interface NewPosition {
  userId: number;
  productId: number;
  amount: bigint;
  dayRatePpm: bigint;
  startEpoch: number;
  endEpoch: number | null;
  requestKey: string;
  minerId: number;
  flowId: number;
  now: Date;
}

export async function insertPosition(tx: Tx, p: NewPosition): Promise<number> {
  const rows = rowsOf<{ id: string }>(
    await tx.execute(sql`
      insert into pledge_positions (user_id, product_id, amount, day_rate_ppm, start_epoch, end_epoch, status, request_key, miner_id, flow_id, created_at)
      values (${p.userId}, ${p.productId}, ${p.amount.toString()}::numeric, ${p.dayRatePpm.toString()}::int, ${p.startEpoch}, ${p.endEpoch}, 'active',
              ${p.requestKey}, ${p.minerId}, ${p.flowId}, ${p.now})
      returning id::text as id`),
  );
  return Number(rows[0]?.id);
}

/** A position with the product fields its views need. */
export interface PositionRow {
  id: number;
  userId: number;
  product: ProductRow;
  amount: bigint;
  dayRatePpm: bigint;
  startEpoch: number;
  endEpoch: number | null;
  status: 'active' | 'redeemed';
  minerId: number | null;
  flowId: number | null;
  releaseFlowId: number | null;
  interestTotal: bigint;
  createdAt: Date;
  redeemedAt: Date | null;
}

interface RawPosition extends Omit<RawProduct, 'id'> {
  product_id: number;
  pos_id: string;
  user_id: number;
  amount: string;
  pos_rate_ppm: number;
  start_epoch: number;
  end_epoch: number | null;
  status: 'active' | 'redeemed';
  miner_id: string | null;
  flow_id: string | null;
  release_flow_id: string | null;
  interest_total: string;
  created_at: Date | string;
  redeemed_at: Date | string | null;
}

function toPosition(r: RawPosition): PositionRow {
  const idOrNull = (v: string | null) => (v == null ? null : Number(v));
  return {
    id: Number(r.pos_id),
    userId: Number(r.user_id),
    product: toProduct({ ...r, id: r.product_id }),
    amount: BigInt(r.amount),
    dayRatePpm: BigInt(r.pos_rate_ppm),
    startEpoch: Number(r.start_epoch),
    endEpoch: r.end_epoch == null ? null : Number(r.end_epoch),
    status: r.status,
    minerId: idOrNull(r.miner_id),
    flowId: idOrNull(r.flow_id),
    releaseFlowId: idOrNull(r.release_flow_id),
    interestTotal: BigInt(r.interest_total),
    createdAt: date(r.created_at),
    redeemedAt: dateOrNull(r.redeemed_at),
  };
}

function positionSelect(where: SQL): SQL {
  return sql`
    select ${productColumns}, p.id as product_id, x.id::text as pos_id, x.user_id, x.amount::text as amount, x.day_rate_ppm as pos_rate_ppm,
           x.start_epoch, x.end_epoch, x.status, x.miner_id::text as miner_id, x.flow_id::text as flow_id,
           x.release_flow_id::text as release_flow_id, x.interest_total::text as interest_total, x.created_at, x.redeemed_at
      from pledge_positions x join pledge_products p on p.id = x.product_id
     where ${where}`;
}

/** One of the user's positions (another user's id answers null, as a missing one does). */
export async function findOwnPosition(db: Db | Tx, userId: number, id: number): Promise<PositionRow | null> {
  const rows = rowsOf<RawPosition>(await db.execute(positionSelect(sql`x.id = ${id} and x.user_id = ${userId}`)));
  return rows[0] ? toPosition(rows[0]) : null;
}

export async function findPositionByFlow(db: Db | Tx, flowId: number): Promise<PositionRow | null> {
  const rows = rowsOf<RawPosition>(await db.execute(positionSelect(sql`x.flow_id = ${flowId}`)));
  return rows[0] ? toPosition(rows[0]) : null;
}

async function pageOf(db: Db, where: SQL, offset: number, limit: number): Promise<{ rows: PositionRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db.execute(sql`${positionSelect(where)} order by x.id desc limit ${limit} offset ${offset}`),
    db.execute(sql`select count(*)::int as total from pledge_positions x join pledge_products p on p.id = x.product_id where ${where}`),
  ]);
  return { rows: rowsOf<RawPosition>(rows).map(toPosition), total: Number(rowsOf<{ total: number }>(count)[0]?.total ?? 0) };
}

/** The user's positions, newest first, optionally of one status. */
export async function listPositions(db: Db, userId: number, status: 'active' | 'redeemed' | undefined, offset: number, limit: number) {
  const where = status ? sql`x.user_id = ${userId} and x.status = ${status}` : sql`x.user_id = ${userId}`;
  return pageOf(db, where, offset, limit);
}

/** Release records: every locked position (waiting, then redeemed) and every redeemed term-less one. */
export async function listReleases(db: Db, userId: number, offset: number, limit: number) {
  return pageOf(db, sql`x.user_id = ${userId} and (p.term_epochs > 0 or x.status = 'redeemed')`, offset, limit);
}

/**
 * active → redeemed with the redeeming flow, only while active: a concurrent redeem (or a release)
 * that came first leaves nothing to update, and the caller rolls back its flow.
 */
export async function markRedeemed(tx: Tx, id: number, userId: number, flowId: number, at: Date): Promise<boolean> {
  const rows = rowsOf<{ id: string }>(
    await tx.execute(sql`
      update pledge_positions set status = 'redeemed', release_flow_id = ${flowId}, redeemed_at = ${at}
       where id = ${id} and user_id = ${userId} and status = 'active'
      returning id::text as id`),
  );
  return rows.length > 0;
}

export async function readInterest(db: Db | Tx, userId: number): Promise<{ claimable: bigint; claimedTotal: bigint }> {
  const rows = rowsOf<{ claimable: string; claimed_total: string }>(
    await db.execute(sql`select claimable::text as claimable, claimed_total::text as claimed_total from pledge_interest where user_id = ${userId}`),
  );
  return { claimable: big(rows[0]?.claimable), claimedTotal: big(rows[0]?.claimed_total) };
}

/** claimable → claimed_total while the row still holds the amount; false when a concurrent claim took it first. */
export async function markInterestClaimed(tx: Tx, userId: number, amount: bigint, at: Date): Promise<boolean> {
  const rows = rowsOf<{ user_id: number }>(
    await tx.execute(sql`
      update pledge_interest set claimable = claimable - ${amount.toString()}::numeric, claimed_total = claimed_total + ${amount.toString()}::numeric,
             updated_at = ${at}
       where user_id = ${userId} and claimable >= ${amount.toString()}::numeric
      returning user_id`),
  );
  return rows.length > 0;
}

export interface InterestLineRow {
  epoch: number;
  positionId: number;
  name: string;
  kind: PledgeKind;
  termEpochs: number;
  amount: bigint;
  principal: bigint;
  dayRatePpm: bigint;
}

/** The user's latest interest lines, newest epoch first. */
export async function latestInterestLines(db: Db, userId: number, limit: number): Promise<InterestLineRow[]> {
  const rows = rowsOf<{
    epoch: number;
    position_id: string;
    name: string;
    kind: PledgeKind;
    term_epochs: number;
    amount: string;
    principal: string;
    day_rate_ppm: number;
  }>(
    await db.execute(sql`
      select l.epoch, l.position_id::text as position_id, p.name, p.kind, p.term_epochs, l.amount::text as amount, x.amount::text as principal, x.day_rate_ppm
        from pledge_interest_lines l
        join pledge_positions x on x.id = l.position_id
        join pledge_products p on p.id = x.product_id
       where l.user_id = ${userId}
       order by l.epoch desc, l.position_id desc
       limit ${limit}`),
  );
  return rows.map((r) => ({
    epoch: Number(r.epoch),
    positionId: Number(r.position_id),
    name: r.name,
    kind: r.kind,
    termEpochs: Number(r.term_epochs),
    amount: BigInt(r.amount),
    principal: BigInt(r.principal),
    dayRatePpm: BigInt(r.day_rate_ppm),
  }));
}

export async function readLastSettledPledgeEpoch(db: Db): Promise<number | null> {
  const rows = rowsOf<{ epoch: number | null }>(await db.execute(sql`select max(epoch) as epoch from pledge_epochs`));
  const epoch = rows[0]?.epoch;
  return epoch == null ? null : Number(epoch);
}
