// The two node types of the book. Both are intrusive: an order is its own queue node and a
// price level is its own tree node and list node, so the hot path allocates nothing but the
// order itself and follows pointers instead of looking things up.
import type { Side } from './types.ts';

/** Counts a user's resting orders, for the maxUserOpenOrders limit. */
export class UserAccount {
  readonly userId: number;
  openOrders = 0;

  constructor(userId: number) {
    this.userId = userId;
  }
}

export class OrderNode {
  readonly orderId: number;
  readonly userId: number;
  readonly side: Side;
  readonly postOnly: boolean;
  priceTicks: number;
  remainingLots: number;
  filledLots = 0;
  /** When the order took its current place in the queue (placement or priority-losing modify). */
  ts: number;
  level: PriceLevel | null = null;
  /** Neighbours in the level's FIFO queue: prev is older (ahead), next is newer. */
  prev: OrderNode | null = null;
  next: OrderNode | null = null;
  account: UserAccount | null = null;

  constructor(orderId: number, userId: number, side: Side, postOnly: boolean, priceTicks: number, remainingLots: number, ts: number) {
    this.orderId = orderId;
    this.userId = userId;
    this.side = side;
    this.postOnly = postOnly;
    this.priceTicks = priceTicks;
    this.remainingLots = remainingLots;
    this.ts = ts;
  }
}

export class PriceLevel {
  /** Sort key: the price for asks, minus the price for bids, so the best level has the least key. */
  key = 0;
  priceTicks = 0;
  totalLots = 0;
  orderCount = 0;
  head: OrderNode | null = null;
  tail: OrderNode | null = null;
  /** Neighbouring levels of the same side, in price priority order. */
  better: PriceLevel | null = null;
  worse: PriceLevel | null = null;
  // Red-black tree links (see price-tree.ts).
  parent: PriceLevel | null = null;
  left: PriceLevel | null = null;
  right: PriceLevel | null = null;
  red = true;
}
