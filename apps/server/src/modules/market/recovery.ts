// The market writer when a batch fails. The database is the system of record: the engine and the
// open orders are thrown away and rebuilt from it, and the batch's commands run again one by one,
// so only a command that fails on its own fails. Two cases differ: a newer writer took over (the
// batch is refused, and this writer is fenced out for good), and a statement whose answer was lost
// may have committed (then the batch stands and running it again would place twice).
import { MatchingEngine } from '@nadi/engine/engine';
import type { BookSnapshot, SnapshotOrder } from '@nadi/engine/types';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { pgCode } from '../../db/pg-code.ts';
import type { MarketConfig } from './params.ts';
import { FencedError, hasCommitted, readRecoveryState, tradeIdsBySeq, type OrderRow } from './repo.ts';
import type { SettlementBatch } from './settle.ts';
import type { Command, Outcome } from './writer-queue.ts';

/** The statement of a batch failed; what the batch had decided, in case it committed all the same. */
export class SettleFailed extends Error {
  readonly batch: SettlementBatch;
  readonly outcomes: Outcome[];
  constructor(cause: unknown, batch: SettlementBatch, outcomes: Outcome[]) {
    super('market: the batch statement failed', { cause });
    this.batch = batch;
    this.outcomes = outcomes;
  }
}

/** What recovery needs of the writer (service.ts). */
export interface RecoverableWriter {
  readonly db: Db;
  readonly symbol: string;
  /** Throws MARKET_UNAVAILABLE once a newer writer took over. */
  throwIfFenced(): void;
  /** False after a failed rebuild or a fence: the next batch rebuilds first. */
  hasBook(): boolean;
  /** Reads, decides and writes one batch; a failed statement is thrown as SettleFailed. */
  attempt(commands: Command[]): Promise<Outcome[]>;
  rebuild(): Promise<void>;
  /** Another instance writes now: this writer's book is stale and must not be used again. */
  fence(): void;
  countFailedBatch(): void;
  /** Tells the live streams what a batch committed. */
  publish(batch: SettlementBatch, tradeIds: Map<number, number>): void;
}

/**
 * One batch: the outcomes of its first commands, all of them unless it ended early (a balance to
 * read first). If it fails, the book is rebuilt and each command runs again on its own (unless the
 * write committed after all); a lone command that failed before its write runs once more.
 */
export async function executeBatch(writer: RecoverableWriter, commands: Command[], isRetry = false): Promise<Outcome[]> {
  writer.throwIfFenced();
  if (!writer.hasBook()) await writer.rebuild();
  try {
    return await writer.attempt(commands);
  } catch (thrown) {
    return recoverBatch(writer, commands, thrown, isRetry);
  }
}

async function recoverBatch(writer: RecoverableWriter, commands: Command[], thrown: unknown, isRetry: boolean): Promise<Outcome[]> {
  const error = thrown instanceof SettleFailed ? thrown.cause : thrown;
  if (error instanceof FencedError) {
    writer.fence();
    throw new AppError('MARKET_UNAVAILABLE', undefined, { cause: error });
  }
  writer.countFailedBatch();
  await writer.rebuild();
  if (thrown instanceof SettleFailed && (await hasCommittedAfterAll(writer.db, thrown))) {
    const seqs = thrown.batch.events.flatMap((e) => (e.type === 'trade' ? [e.seq] : []));
    writer.publish(thrown.batch, await tradeIdsBySeq(writer.db, writer.symbol, seqs));
    return thrown.outcomes;
  }
  if (commands.length === 1) {
    // It failed before its statement (the book disagreed with the database), so nothing was
    // written: once more, on the rebuilt book.
    if (!(thrown instanceof SettleFailed) && !isRetry) return executeBatch(writer, commands, true);
    throw error;
  }
  const outcomes: Outcome[] = [];
  for (const command of commands) outcomes.push(await runAlone(writer, command));
  return outcomes;
}

/**
 * The lost-commit check. No answer from the server (a dropped connection) may hide a commit: then
 * the batch stands (the rebuilt book holds it) and its commands get the answers it decided. An
 * error the server answered (it has a SQLSTATE) rolled the batch back.
 */
async function hasCommittedAfterAll(db: Db, failed: SettleFailed): Promise<boolean> {
  return pgCode(failed.cause) === undefined && (await hasCommitted(db, failed.batch));
}

/** A command in a batch of its own; if it ended early (a balance to read first), once more, now with the balance read. */
async function runAlone(writer: RecoverableWriter, command: Command): Promise<Outcome> {
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    const [outcome] = await executeBatch(writer, [command]).catch((error: unknown) => [{ error }]);
    if (outcome) return outcome;
  }
  return { error: new Error('market: a command run alone got no outcome') };
}

/** The book as the database has it: the engine restored and the rows of its resting orders. */
export interface RestoredBook {
  engine: MatchingEngine;
  openOrders: Map<number, OrderRow>;
  lastOrderId: number;
  lastTsMs: number;
}

/**
 * The book is the open orders of the database, in price-time priority (ids are given in arrival
 * order, so id order is time order), restored through the engine's own snapshot check. Counters
 * continue after everything committed, so ids, sequences and times never repeat.
 */
export async function restoreBook(db: Db, c: MarketConfig): Promise<RestoredBook> {
  const state = await readRecoveryState(db, c.symbol);
  const row = (o: OrderRow): SnapshotOrder => {
    const remaining = (o.quantity ?? 0n) - o.filled;
    return [o.id, o.userId, Number((o.price ?? 0n) / c.tickUnits), Number(remaining / c.lotUnits), Number(o.filled / c.lotUnits), o.tsMs, 0];
  };
  const bids = state.openOrders.filter((o) => o.side === 'buy').sort((a, b) => cmpDesc(a.price, b.price) || a.id - b.id);
  const asks = state.openOrders.filter((o) => o.side === 'sell').sort((a, b) => cmpDesc(b.price, a.price) || a.id - b.id);
  const snapshot: BookSnapshot = {
    version: 1,
    params: c.engine,
    seq: state.lastSeq,
    lastOrderId: state.lastOrderId,
    lastTs: state.lastTsMs,
    lastPriceTicks: state.lastPrice === null ? 0 : Number(state.lastPrice / c.tickUnits),
    bids: bids.map(row),
    asks: asks.map(row),
  };
  return {
    engine: MatchingEngine.restore(snapshot),
    openOrders: new Map(state.openOrders.map((o) => [o.id, o])),
    lastOrderId: state.lastOrderId,
    lastTsMs: state.lastTsMs,
  };
}

function cmpDesc(a: bigint | null, b: bigint | null): number {
  const x = a ?? 0n;
  const y = b ?? 0n;
  return x > y ? -1 : x < y ? 1 : 0;
}
