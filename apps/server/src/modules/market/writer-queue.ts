// The market writer's queue (group commit). Commands wait here in arrival order and leave in
// batches: a lone command is a batch of one; under load, the commands that arrive while a batch is
// being written form the next batch, so they share one round trip and one commit instead of
// queueing behind ten. The queue decides only when a batch leaves and what it holds; running it
// (decide.ts, then one statement) is the writer's (service.ts), and recovery.ts handles a failure.
import type { MarketOrder, PlaceOrderInput } from '@nadi/api/market';
import { AppError } from '../../lib/app-error.ts';
import type { OrderRow } from './repo.ts';
import { orderView } from './views.ts';

/** Commands written together at most; more wait for the next batch. */
export const batchCommandsMax = 256;
/** Commands waiting for the writer at most; beyond it a command is refused (429), not queued. */
const queuedCommandsMax = 10_000;
/**
 * The longest a batch waits to gather the commands it expects (drain): about one round trip of a
 * client that got its answer and sends its next order.
 */
export const batchGatherMaxMs = 2;

export type Command = { op: 'place'; userId: number; input: PlaceOrderInput } | { op: 'cancel'; userId: number; orderId: number };

/** What a command came to; its answer is the row as the batch committed it. */
export type Outcome = { row: OrderRow } | { error: unknown };

/**
 * Runs one batch and gives the outcomes of its first commands, all of them unless the batch ended
 * early (a balance it must read first): the commands it did not reach go first into the next one.
 */
export type RunBatch = (commands: Command[]) => Promise<Outcome[]>;

interface Queued {
  command: Command;
  resolve(order: MarketOrder): void;
  reject(error: unknown): void;
}

export class WriterQueue {
  private readonly runBatch: RunBatch;
  private readonly queue: Queued[] = [];
  private isDraining = false;
  /** How many commands the next batch expects (drain); it waits for them at most batchGatherMaxMs. */
  private gatherTarget = 0;
  private wakeGather: (() => void) | null = null;

  constructor(runBatch: RunBatch) {
    this.runBatch = runBatch;
  }

  /** Queues a command; it is answered when the batch that holds it is written (or refused). */
  enqueue(command: Command): Promise<MarketOrder> {
    return new Promise((resolve, reject) => {
      if (this.queue.length >= queuedCommandsMax) return reject(new AppError('RATE_LIMITED'));
      this.queue.push({ command, resolve, reject });
      this.wakeGather?.();
      if (this.isDraining) return;
      // Started after the I/O callbacks of this turn, so commands that arrived together leave together.
      this.isDraining = true;
      setImmediate(() => void this.drain());
    });
  }

  /**
   * Runs the queue in arrival order, a batch at a time, until it is empty.
   *
   * Group commit with a short gather: the clients a batch answers send their next orders about one
   * round trip later. A batch that left at once would hold only what queued during the previous
   * one, and the clients would settle into groups that take turns, each group paying a batch's
   * fixed cost (a statement, a commit). So a batch waits, at most batchGatherMaxMs, until the queue
   * holds what was waiting when the last batch ended plus what that batch answered: the groups
   * merge into one larger batch. Under light load nothing waits (the last batch answered one
   * command, and the next command alone meets the target).
   */
  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        if (this.queue.length < this.gatherTarget) await this.gather();
        const queued = this.queue.splice(0, batchCommandsMax);
        let outcomes: Outcome[];
        try {
          outcomes = await this.runBatch(queued.map((q) => q.command));
        } catch (error) {
          outcomes = queued.map(() => ({ error }));
        }
        // A batch may end early (a balance to read first): the commands it did not reach go first into the next one.
        this.queue.unshift(...queued.slice(outcomes.length));
        this.gatherTarget = Math.min(batchCommandsMax, this.queue.length + outcomes.length);
        outcomes.forEach((outcome, i) => {
          const q = queued[i] as Queued;
          if ('row' in outcome) q.resolve(orderView(outcome.row));
          else q.reject(outcome.error);
        });
      }
    } finally {
      this.isDraining = false;
    }
  }

  /** Resolves when the queue reaches gatherTarget, or after batchGatherMaxMs. */
  private gather(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeGather = null;
        resolve();
      };
      const timer = setTimeout(done, batchGatherMaxMs);
      this.wakeGather = () => {
        if (this.queue.length >= this.gatherTarget) done();
      };
    });
  }
}
