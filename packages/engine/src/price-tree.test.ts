import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BookSide } from './book-side.ts';
import { fnv1a64 } from './hash.ts';
import { OrderNode, PriceLevel } from './price-level.ts';
import { checkTree, PriceTree } from './price-tree.ts';
import { Prng } from './prng.ts';
import type { Side } from './types.ts';

function listKeys(tree: PriceTree): number[] {
  let first = tree.root;
  while (first !== null && first.left !== null) first = first.left;
  const keys: number[] = [];
  for (let level = first; level !== null; level = level.worse) keys.push(level.key);
  return keys;
}

describe('price tree', () => {
  it('stays a valid red-black tree whose list is sorted, under random inserts and removes', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: -60, max: 60 })), { minLength: 100, maxLength: 400 }), (ops) => {
        const tree = new PriceTree();
        const nodes = new Map<number, PriceLevel>();
        for (const [add, key] of ops) {
          const existing = nodes.get(key);
          if (add && existing === undefined) {
            const level = new PriceLevel();
            level.key = key;
            const before = tree.insert(level);
            nodes.set(key, level);
            const smaller = [...nodes.keys()].filter((k) => k < key);
            expect(before?.key).toBe(smaller.length === 0 ? undefined : Math.max(...smaller));
          } else if (!add && existing !== undefined) {
            tree.remove(existing);
            nodes.delete(key);
          }
          checkTree(tree.root);
          expect(tree.size).toBe(nodes.size);
          expect(listKeys(tree)).toEqual([...nodes.keys()].sort((a, b) => a - b));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('keeps its height logarithmic for sorted insertions (the worst case of an unbalanced tree)', () => {
    const tree = new PriceTree();
    for (let key = 0; key < 100_000; key++) {
      const level = new PriceLevel();
      level.key = key;
      tree.insert(level);
    }
    const height = (node: PriceLevel | null): number => (node === null ? 0 : 1 + Math.max(height(node.left), height(node.right)));
    // A red-black tree's height is at most 2 log2(n + 1), about 33.2 for 100,000 nodes.
    expect(height(tree.root)).toBeLessThanOrEqual(34);
    checkTree(tree.root);
  });
});

describe('book side', () => {
  it('keeps levels, queues and totals consistent and reports every level change', () => {
    const rng = new Prng(42);
    for (const side of ['buy', 'sell'] as Side[]) {
      const book = new BookSide(side);
      const changes = new Map<number, number>();
      book.listener = { levelChanged: (_s, price, total) => changes.set(price, total) };
      const resting: OrderNode[] = [];
      for (let i = 1; i <= 3_000; i++) {
        const roll = rng.nextFloat();
        if (roll < 0.5 || resting.length === 0) {
          const order = new OrderNode(i, 1, side, false, rng.int(90, 110), rng.int(1, 9), i);
          book.append(order);
          resting.push(order);
        } else if (roll < 0.8) {
          const order = resting.splice(rng.int(0, resting.length - 1), 1)[0] as OrderNode;
          book.remove(order);
        } else {
          const order = rng.pick(resting);
          if (order.remainingLots > 1) book.reduce(order, 1);
        }
        book.check();
      }
      const best = side === 'buy' ? Math.max(...resting.map((o) => o.priceTicks)) : Math.min(...resting.map((o) => o.priceTicks));
      expect(book.best?.priceTicks).toBe(best);
      // The last reported total of every price equals what the book holds there now.
      for (const [price, total] of changes) expect(book.levelAt(price)?.totalLots ?? 0).toBe(total);
    }
  });

  it('refuses to reduce an order to zero or below (a fill of everything must remove it)', () => {
    const book = new BookSide('sell');
    const order = new OrderNode(1, 1, 'sell', false, 100, 3, 0);
    book.append(order);
    expect(() => book.reduce(order, 3)).toThrow(/bad reduce/);
  });
});

describe('fnv1a64', () => {
  it('matches the published FNV-1a 64-bit test vectors', () => {
    expect(fnv1a64('')).toBe('cbf29ce484222325');
    expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
    expect(fnv1a64('foobar')).toBe('85944171f73967e8');
  });
});
