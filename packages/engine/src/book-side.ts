// One side of the book: price levels found by price in a Map (O(1)), ordered by a red-black
// tree (O(log n) to add or drop a level) and threaded best-first (O(1) best price), each level
// a FIFO doubly linked list of orders (O(1) append, cancel and fill).
import { assert } from './assert.ts';
import { PriceLevel, type OrderNode } from './price-level.ts';
import { checkTree, PriceTree } from './price-tree.ts';
import type { Side } from './types.ts';

/** Told the new total of every price level whose total changed (0 when the level is gone). */
export interface LevelListener {
  levelChanged(side: Side, priceTicks: number, totalLots: number): void;
}

// Empty levels are kept for reuse so that a busy book does not churn the garbage collector.
const SPARE_LEVELS_MAX = 256;

export class BookSide {
  readonly side: Side;
  readonly isBid: boolean;
  /** The best level (highest bid or lowest ask), or null when the side is empty. */
  best: PriceLevel | null = null;
  orderCount = 0;
  listener: LevelListener | null = null;
  private readonly byPrice = new Map<number, PriceLevel>();
  private readonly tree = new PriceTree();
  private spare: PriceLevel[] = [];

  constructor(side: Side) {
    this.side = side;
    this.isBid = side === 'buy';
  }

  get levelCount(): number {
    return this.tree.size;
  }

  /** Sort key of a price on this side: the best level has the least key. */
  keyOf(priceTicks: number): number {
    return this.isBid ? -priceTicks : priceTicks;
  }

  levelAt(priceTicks: number): PriceLevel | undefined {
    return this.byPrice.get(priceTicks);
  }

  /** Queues an order at the tail of the level of its price, creating the level if needed. */
  append(order: OrderNode): void {
    assert(order.remainingLots > 0 && order.level === null, 'book: append of a bad order');
    let level = this.byPrice.get(order.priceTicks);
    if (level === undefined) level = this.addLevel(order.priceTicks);
    order.level = level;
    order.prev = level.tail;
    order.next = null;
    if (level.tail === null) level.head = order;
    else level.tail.next = order;
    level.tail = order;
    level.orderCount++;
    level.totalLots += order.remainingLots;
    this.orderCount++;
    if (this.listener !== null) this.listener.levelChanged(this.side, level.priceTicks, level.totalLots);
  }

  /** Takes an order out of its level in O(1); drops the level when it empties. */
  remove(order: OrderNode): void {
    const level = order.level;
    assert(level !== null, 'book: remove of an order not in the book');
    if (order.prev === null) level.head = order.next;
    else order.prev.next = order.next;
    if (order.next === null) level.tail = order.prev;
    else order.next.prev = order.prev;
    order.prev = null;
    order.next = null;
    order.level = null;
    level.orderCount--;
    level.totalLots -= order.remainingLots;
    this.orderCount--;
    if (level.orderCount === 0) {
      assert(level.totalLots === 0, 'book: empty level with quantity');
      this.dropLevel(level);
    } else if (this.listener !== null) {
      this.listener.levelChanged(this.side, level.priceTicks, level.totalLots);
    }
  }

  /** Lowers an order's open quantity in place (a fill or a modify down); it keeps its priority. */
  reduce(order: OrderNode, lots: number): void {
    const level = order.level;
    assert(level !== null && lots > 0 && lots < order.remainingLots, 'book: bad reduce');
    order.remainingLots -= lots;
    level.totalLots -= lots;
    if (this.listener !== null) this.listener.levelChanged(this.side, level.priceTicks, level.totalLots);
  }

  private addLevel(priceTicks: number): PriceLevel {
    const level = this.spare.pop() ?? new PriceLevel();
    level.priceTicks = priceTicks;
    level.key = this.isBid ? -priceTicks : priceTicks;
    this.byPrice.set(priceTicks, level);
    if (this.tree.insert(level) === null) this.best = level;
    return level;
  }

  private dropLevel(level: PriceLevel): void {
    if (this.best === level) this.best = level.worse;
    this.tree.remove(level);
    this.byPrice.delete(level.priceTicks);
    level.head = null;
    level.tail = null;
    if (this.spare.length < SPARE_LEVELS_MAX) this.spare.push(level);
    if (this.listener !== null) this.listener.levelChanged(this.side, level.priceTicks, 0);
  }

  /** O(n) consistency check of levels, queues and tree; throws on the first broken invariant. */
  check(): void {
    checkTree(this.tree.root);
    assert(this.best === null || this.best.better === null, 'book: best level has a better one');
    let levels = 0;
    let orders = 0;
    let previousKey = -Infinity;
    for (let level = this.best; level !== null; level = level.worse) {
      assert(level.key > previousKey && level.key === this.keyOf(level.priceTicks), 'book: levels out of order');
      assert(this.byPrice.get(level.priceTicks) === level, 'book: level missing from the price map');
      previousKey = level.key;
      levels++;
      orders += checkQueue(level);
    }
    assert(levels === this.tree.size && levels === this.byPrice.size, 'book: level counts disagree');
    assert(orders === this.orderCount, 'book: order count disagrees');
  }
}

function checkQueue(level: PriceLevel): number {
  let count = 0;
  let total = 0;
  let prev: OrderNode | null = null;
  for (let order = level.head; order !== null; order = order.next) {
    assert(order.level === level && order.prev === prev, 'book: broken order queue');
    assert(order.priceTicks === level.priceTicks, 'book: order at the wrong level');
    assert(Number.isSafeInteger(order.remainingLots) && order.remainingLots > 0, 'book: non-positive quantity');
    count++;
    total += order.remainingLots;
    prev = order;
  }
  assert(level.tail === prev, 'book: broken queue tail');
  assert(count === level.orderCount && count > 0, 'book: level order count disagrees');
  assert(total === level.totalLots, 'book: level total disagrees');
  return count;
}
