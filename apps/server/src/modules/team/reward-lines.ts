// Purchase-time team reward lines (docs/team.md "Rewards"): the device direct reward is paid by the
// store when an order is paid (and taken back when it is refunded), in that transaction; this writes
// its line in team_rewards, with the inputs that recompute it, and keeps the recipient's running
// total per kind in team_reward_totals (the team screen reads one row per kind). A line is written
// once per `ref`, so a retried payment adds nothing.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

export interface PurchaseRewardLine {
  /** Who is paid: the buyer's referrer. */
  userId: number;
  /** The buyer, one level below. */
  sourceUserId: number;
  /** The order's total in USDT base units. */
  sourceUsdt: bigint;
  rateBps: bigint;
  /** NADI the formula gives (negative for a clawback: the whole reward) and NADI actually moved (less when the pool, or the referrer's balance for a clawback, was short). */
  wanted: bigint;
  amount: bigint;
  /** 'store_order:<id>', or 'store_order:<id>:refund' for a clawback. */
  ref: string;
  flowId: number | null;
  /** The mining epoch the purchase (or refund) falls in. */
  epoch: number;
  at: Date;
}

/**
 * Writes a device direct reward line and adds its amount to the recipient's totals (ever, and in the
 * epoch: added when the epoch is the one last recorded, started afresh when later). Answers false,
 * changing nothing, when a line of `ref` exists.
 */
export async function recordPurchaseReward(tx: Tx, line: PurchaseRewardLine): Promise<boolean> {
  const inserted = rowsOf<{ id: string }>(
    await tx.execute(sql`
      insert into team_rewards (epoch, user_id, kind, source_user_id, source_depth, source_amount, rate_bps, wanted, amount, ref, flow_id, created_at)
      values (${line.epoch}, ${line.userId}, 'device_direct_reward', ${line.sourceUserId}, 1, ${line.sourceUsdt.toString()}::numeric,
              ${Number(line.rateBps)}, ${line.wanted.toString()}::numeric, ${line.amount.toString()}::numeric, ${line.ref}, ${line.flowId}, ${line.at})
      on conflict (ref) where ref is not null do nothing
      returning id::text as id`),
  );
  if (inserted.length === 0) return false;
  await tx.execute(sql`
    insert into team_reward_totals (user_id, kind, total, last_epoch, last_epoch_amount)
    values (${line.userId}, 'device_direct_reward', ${line.amount.toString()}::numeric, ${line.epoch}, ${line.amount.toString()}::numeric)
    on conflict (user_id, kind) do update
       set total = team_reward_totals.total + excluded.total,
           last_epoch_amount = case
             when excluded.last_epoch = team_reward_totals.last_epoch then team_reward_totals.last_epoch_amount + excluded.last_epoch_amount
             when excluded.last_epoch > team_reward_totals.last_epoch then excluded.last_epoch_amount
             else team_reward_totals.last_epoch_amount end,
           last_epoch = greatest(team_reward_totals.last_epoch, excluded.last_epoch)`);
  return true;
}

export interface PurchaseRewardClawback {
  /** The reward line taken back ('store_order:<id>') and the clawback's own ref ('store_order:<id>:refund'). */
  paidRef: string;
  ref: string;
  /** NADI taken back: what was paid and what the recipient still held of it (both positive). */
  wanted: bigint;
  amount: bigint;
  flowId: number | null;
  epoch: number;
  at: Date;
}

/**
 * The negative line of a reward taken back, with the inputs of the line it reverses (its recipient,
 * source, order total and rate). Answers false, writing nothing, when that line does not exist (a
 * reward paid before lines were written: the totals never counted it either) or the clawback was
 * recorded before.
 */
export async function recordPurchaseClawback(tx: Tx, clawback: PurchaseRewardClawback): Promise<boolean> {
  const paid = rowsOf<{ user_id: number; source_user_id: number; source_amount: string; rate_bps: number }>(
    await tx.execute(sql`
      select user_id, source_user_id, source_amount::text as source_amount, rate_bps
        from team_rewards where ref = ${clawback.paidRef} and kind = 'device_direct_reward'`),
  )[0];
  if (!paid) return false;
  return recordPurchaseReward(tx, {
    userId: Number(paid.user_id),
    sourceUserId: Number(paid.source_user_id),
    sourceUsdt: BigInt(paid.source_amount),
    rateBps: BigInt(paid.rate_bps),
    wanted: -clawback.wanted,
    amount: -clawback.amount,
    ref: clawback.ref,
    flowId: clawback.flowId,
    epoch: clawback.epoch,
    at: clawback.at,
  });
}
