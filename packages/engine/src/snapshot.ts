// Snapshot checks and the state hash, shared by the engine and the reference matcher.
// A snapshot is untrusted input (it may come from disk), so restore validates every field.
import { assert, isSafeNonNegative, isSafePositive } from './assert.ts';
import { fnv1a64 } from './hash.ts';
import type { BookSnapshot, SnapshotOrder } from './types.ts';

/** FNV-1a 64 over the snapshot's JSON; equal books give equal hashes because snapshots are canonical. */
export function hashSnapshot(snapshot: BookSnapshot): string {
  return fnv1a64(JSON.stringify(snapshot));
}

export function checkSnapshotHeader(snapshot: BookSnapshot): void {
  assert(snapshot.version === 1, 'snapshot: unknown version');
  assert(isSafeNonNegative(snapshot.seq), 'snapshot: seq');
  assert(isSafeNonNegative(snapshot.lastOrderId), 'snapshot: lastOrderId');
  assert(isSafeNonNegative(snapshot.lastTs), 'snapshot: lastTs');
  assert(isSafeNonNegative(snapshot.lastPriceTicks), 'snapshot: lastPriceTicks');
  assert(snapshot.lastPriceTicks <= snapshot.params.maxPriceTicks, 'snapshot: lastPriceTicks too large');
  assert(Array.isArray(snapshot.bids) && Array.isArray(snapshot.asks), 'snapshot: sides');
}

/**
 * Checks one order row against the snapshot header and the previous row of the same side
 * (rows must be best price first, so a price may never improve along a side).
 */
export function checkSnapshotRow(snapshot: BookSnapshot, row: SnapshotOrder, isBid: boolean, previousPriceTicks: number): void {
  assert(Array.isArray(row) && row.length === 7, 'snapshot: order row shape');
  const [orderId, userId, priceTicks, remainingLots, filledLots, ts, postOnly] = row;
  assert(isSafePositive(orderId) && orderId <= snapshot.lastOrderId, 'snapshot: order id');
  assert(Number.isSafeInteger(userId), 'snapshot: user id');
  assert(isSafePositive(priceTicks) && priceTicks <= snapshot.params.maxPriceTicks, 'snapshot: price');
  assert(isSafePositive(remainingLots) && remainingLots <= snapshot.params.maxQtyLots, 'snapshot: quantity');
  assert(isSafeNonNegative(filledLots), 'snapshot: filled quantity');
  assert(isSafeNonNegative(ts) && ts <= snapshot.lastTs, 'snapshot: order timestamp');
  assert(postOnly === 0 || postOnly === 1, 'snapshot: post-only flag');
  const inOrder = isBid ? priceTicks <= previousPriceTicks : priceTicks >= previousPriceTicks;
  assert(inOrder, 'snapshot: orders not in price priority order');
}
