// The one place money moves. Every balance change in the product is a flow of transfers posted
// here: each transfer debits one account part and credits another by the same positive amount of
// the same asset, so every asset's balances always sum to zero. A flow is all or nothing and
// carries an idempotency key. The work under the locks (lock in id order, check, write balances
// and journal rows) runs in the database function ledger_post (modules/ledger/sql/ledger_post.sql,
// which posts through ledger_post_flows.sql), in one statement.
import { sql } from 'drizzle-orm';
import type { AccountKind, Asset, RecordType } from '@nadi/api/wallet';
import type { Db, Tx } from '../../db/client.ts';
import { pgCode } from '../../db/pg-code.ts';
import { rowsOf } from '../../db/rows.ts';
import { AppError } from '../../lib/app-error.ts';
import { hashParams } from '../../lib/hash-params.ts';
import { assertNotFrozen, spendsOwnBalance } from './frozen.ts';

export type Part = 'available' | 'frozen';

export interface AccountRef {
  /** null for a system account. */
  userId: number | null;
  kind: AccountKind;
  asset: Asset;
}

export interface Leg {
  type: RecordType;
  debit: AccountRef;
  debitPart?: Part;
  credit: AccountRef;
  creditPart?: Part;
  amount: bigint;
  memo?: Record<string, unknown>;
}

export interface FlowContext {
  flowId: number;
  createdAt: Date;
}

export interface FlowRequest<R> {
  idempotencyKey: string;
  userId: number | null;
  type: RecordType;
  /** What the caller asked for; a repeat of the key with other params is a conflict. */
  params: unknown;
  /** Runs in the flow's transaction before the legs are posted (e.g. consume a quote). */
  prepare?: (tx: Tx) => Promise<void>;
  legs: Leg[] | ((tx: Tx) => Promise<Leg[]>);
  /**
   * Runs in the flow's transaction after its legs are posted, for what the flow paid for (a miner, a
   * claimed row): ledger accounts are then locked first, the product's lock order. A throw undoes it all.
   */
  after?: (tx: Tx, ctx: FlowContext) => Promise<void>;
  /**
   * The answer, built from the flow's id and time. A repeat with the same key has the same params
   * (their hash is checked), so the same function rebuilds the first answer exactly.
   */
  result: (ctx: FlowContext) => R;
}

export interface FlowOutcome<R> {
  flowId: number;
  result: R;
  isReplay: boolean;
}

/** A flow touches a handful of accounts; more is a bug, not a workload. */
const legsPerFlowMax = 16;
const retryAttemptsMax = 5;
const retryableCodes = new Set(['40001', '40P01']);
const insufficientCode = 'NL002';

export function accountKey(ref: AccountRef): string {
  return `${ref.userId ?? 'system'}:${ref.kind}:${ref.asset}`;
}

/**
 * Posts a flow: a single statement when it has nothing to prepare, else one transaction. Retries
 * serialization failures and deadlocks a bounded number of times. A key seen before answers with
 * the first result and changes nothing.
 */
export async function runFlow<R>(db: Db, request: FlowRequest<R>): Promise<FlowOutcome<R>> {
  const paramsHash = hashParams(request.params);
  const isSimple = !request.prepare && !request.after && Array.isArray(request.legs);
  for (let attempt = 1; ; attempt += 1) {
    try {
      if (isSimple) {
        const { ctx: _ctx, ...outcome } = await post(db, request, request.legs as Leg[], paramsHash);
        return outcome;
      }
      return await db.transaction((tx) => postFlow(tx, request, paramsHash));
    } catch (error) {
      // A request with the same key may have won the race (or this is a plain repeat: the function
      // refuses a used key with NL001, and any other failure may also hide a winner).
      const replay = await replayOf(db, request, paramsHash);
      if (replay) return replay;
      if (attempt < retryAttemptsMax && retryableCodes.has(pgCode(error) ?? '')) continue;
      throw error;
    }
  }
}

/** Posts a flow inside the caller's transaction, for flows that also write other tables. */
export async function postFlow<R>(tx: Tx, request: FlowRequest<R>, paramsHash = hashParams(request.params)): Promise<FlowOutcome<R>> {
  await request.prepare?.(tx);
  const legs = typeof request.legs === 'function' ? await request.legs(tx) : request.legs;
  const { ctx, ...outcome } = await post(tx, request, legs, paramsHash);
  await request.after?.(tx, ctx);
  return outcome;
}

async function post<R>(db: Db | Tx, request: FlowRequest<R>, legs: Leg[], paramsHash: string): Promise<FlowOutcome<R> & { ctx: FlowContext }> {
  assertLegs(legs);
  // A frozen account spends nothing (docs/operator.md "Frozen accounts"); credits still arrive.
  if (spendsOwnBalance(request.userId, legs)) await assertNotFrozen(db, request.userId!);
  const payload = JSON.stringify(legs.map(toJsonLeg));
  let rows: { flow_id: string | number; created_at: Date | string }[];
  try {
    rows = rowsOf(
      await db.execute(
        sql`select flow_id, created_at from ledger_post(${request.idempotencyKey}, ${request.userId}::int, ${request.type}, ${paramsHash}, ${payload}::jsonb)`,
      ),
    );
  } catch (error) {
    if (pgCode(error) === insufficientCode) throw new AppError('INSUFFICIENT_BALANCE', undefined, { cause: error });
    throw error;
  }
  const row = rows[0];
  if (!row) throw new Error('ledger_post returned no row');
  const ctx = { flowId: Number(row.flow_id), createdAt: new Date(row.created_at) };
  return { flowId: ctx.flowId, result: request.result(ctx), isReplay: false, ctx };
}

async function replayOf<R>(db: Db, request: FlowRequest<R>, paramsHash: string): Promise<FlowOutcome<R> | null> {
  const rows = rowsOf<{ id: string | number; params_hash: string; created_at: Date | string }>(
    await db.execute(sql`select id, params_hash, created_at from ledger_flows where idempotency_key = ${request.idempotencyKey}`),
  );
  const existing = rows[0];
  if (!existing) return null;
  if (existing.params_hash !== paramsHash) throw new AppError('IDEMPOTENCY_CONFLICT');
  const ctx = { flowId: Number(existing.id), createdAt: new Date(existing.created_at) };
  return { flowId: ctx.flowId, result: request.result(ctx), isReplay: true };
}

/**
 * A flow as the ledger's SQL takes it (ledger_post_flows, modules/ledger/sql/ledger_post_flows.sql),
 * for flows posted inside a larger statement (market_settle).
 */
export interface FlowJson {
  key: string;
  user_id: number | null;
  type: RecordType;
  params_hash: string;
  legs: ReturnType<typeof toJsonLeg>[];
}

/** Checks the legs as every flow's are checked, and shapes the flow for the database. */
export function flowJson(flow: Pick<FlowRequest<unknown>, 'idempotencyKey' | 'userId' | 'type' | 'params'> & { legs: Leg[] }): FlowJson {
  assertLegs(flow.legs);
  return { key: flow.idempotencyKey, user_id: flow.userId, type: flow.type, params_hash: hashParams(flow.params), legs: flow.legs.map(toJsonLeg) };
}

function assertLegs(legs: Leg[]): void {
  if (legs.length === 0 || legs.length > legsPerFlowMax) throw new Error(`a flow has 1 to ${legsPerFlowMax} legs, got ${legs.length}`);
  for (const leg of legs) {
    if (leg.amount <= 0n) throw new Error(`ledger leg amount must be positive, got ${leg.amount}`);
    if (leg.debit.asset !== leg.credit.asset) throw new Error('a leg moves one asset');
    if (accountKey(leg.debit) === accountKey(leg.credit) && (leg.debitPart ?? 'available') === (leg.creditPart ?? 'available')) {
      throw new Error('a leg must move between two different account parts');
    }
  }
}

function toJsonLeg(leg: Leg) {
  return {
    type: leg.type,
    asset: leg.debit.asset,
    amount: leg.amount.toString(),
    debit_ref: accountKey(leg.debit),
    debit_user: leg.debit.userId,
    debit_kind: leg.debit.kind,
    debit_part: leg.debitPart ?? 'available',
    credit_ref: accountKey(leg.credit),
    credit_user: leg.credit.userId,
    credit_kind: leg.credit.kind,
    credit_part: leg.creditPart ?? 'available',
    memo: leg.memo ?? null,
  };
}
