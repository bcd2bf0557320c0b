// Red-black tree of price levels (Cormen et al., "Introduction to Algorithms", ch. 13),
// intrusive and iterative: the levels are the nodes and carry parent links, so insert and
// delete are O(log n) worst case with at most three rotations and no recursion or allocation.
// Insertion also threads the new level into the better/worse list, whose head is the best
// price; deletion takes the in-order successor from that list in O(1).
// (A left-leaning red-black tree was tried first: simpler, but its top-down delete restructures
// the whole search path and took a third of the benchmark's time.)
import { assert } from './assert.ts';
import type { PriceLevel } from './price-level.ts';

export class PriceTree {
  root: PriceLevel | null = null;
  size = 0;

  /** Inserts a level whose key is not in the tree; returns the level that comes before it, or null. */
  insert(node: PriceLevel): PriceLevel | null {
    let parent: PriceLevel | null = null;
    let before: PriceLevel | null = null;
    let after: PriceLevel | null = null;
    for (let x = this.root; x !== null; ) {
      parent = x;
      if (node.key < x.key) {
        after = x;
        x = x.left;
      } else {
        assert(node.key > x.key, 'price tree: duplicate key');
        before = x;
        x = x.right;
      }
    }
    node.parent = parent;
    node.left = null;
    node.right = null;
    node.red = true;
    if (parent === null) this.root = node;
    else if (node.key < parent.key) parent.left = node;
    else parent.right = node;
    this.insertFixup(node);
    this.size++;
    node.better = before;
    node.worse = after;
    if (before !== null) before.worse = node;
    if (after !== null) after.better = node;
    return before;
  }

  private insertFixup(start: PriceLevel): void {
    let z = start;
    let p = z.parent;
    while (p !== null && p.red) {
      const g = p.parent as PriceLevel; // a red node is never the root
      if (p === g.left) {
        const uncle = g.right;
        if (uncle !== null && uncle.red) {
          p.red = false;
          uncle.red = false;
          g.red = true;
          z = g;
        } else {
          if (z === p.right) {
            z = p;
            this.rotateLeft(z);
          }
          const zp = z.parent as PriceLevel;
          zp.red = false;
          g.red = true;
          this.rotateRight(g);
        }
      } else {
        const uncle = g.left;
        if (uncle !== null && uncle.red) {
          p.red = false;
          uncle.red = false;
          g.red = true;
          z = g;
        } else {
          if (z === p.left) {
            z = p;
            this.rotateRight(z);
          }
          const zp = z.parent as PriceLevel;
          zp.red = false;
          g.red = true;
          this.rotateLeft(g);
        }
      }
      p = z.parent;
    }
    (this.root as PriceLevel).red = false;
  }

  /** Removes a level that is in the tree and unlinks it from the better/worse list. */
  remove(z: PriceLevel): void {
    let removedRed = z.red;
    let x: PriceLevel | null;
    let xParent: PriceLevel | null;
    if (z.left === null) {
      x = z.right;
      xParent = z.parent;
      this.transplant(z, z.right);
    } else if (z.right === null) {
      x = z.left;
      xParent = z.parent;
      this.transplant(z, z.left);
    } else {
      // With two children the in-order successor is the next level in the list.
      const y = z.worse as PriceLevel;
      assert(y.left === null, 'price tree: successor has a left child');
      removedRed = y.red;
      x = y.right;
      if (y.parent === z) {
        xParent = y;
      } else {
        xParent = y.parent;
        this.transplant(y, y.right);
        y.right = z.right;
        y.right.parent = y;
      }
      this.transplant(z, y);
      y.left = z.left;
      y.left.parent = y;
      y.red = z.red;
    }
    if (!removedRed) this.deleteFixup(x, xParent);
    this.size--;
    if (z.better !== null) z.better.worse = z.worse;
    if (z.worse !== null) z.worse.better = z.better;
    z.better = null;
    z.worse = null;
    z.parent = null;
    z.left = null;
    z.right = null;
  }

  private deleteFixup(start: PriceLevel | null, startParent: PriceLevel | null): void {
    let x = start;
    let parent = startParent;
    while (x !== this.root && (x === null || !x.red)) {
      const p = parent as PriceLevel;
      if (x === p.left) {
        let w = p.right as PriceLevel; // the sibling of a doubly black node exists
        if (w.red) {
          w.red = false;
          p.red = true;
          this.rotateLeft(p);
          w = p.right as PriceLevel;
        }
        if (!isRed(w.left) && !isRed(w.right)) {
          w.red = true;
          x = p;
          parent = p.parent;
        } else {
          if (!isRed(w.right)) {
            (w.left as PriceLevel).red = false;
            w.red = true;
            this.rotateRight(w);
            w = p.right as PriceLevel;
          }
          w.red = p.red;
          p.red = false;
          (w.right as PriceLevel).red = false;
          this.rotateLeft(p);
          x = this.root;
          parent = null;
        }
      } else {
        let w = p.left as PriceLevel;
        if (w.red) {
          w.red = false;
          p.red = true;
          this.rotateRight(p);
          w = p.left as PriceLevel;
        }
        if (!isRed(w.left) && !isRed(w.right)) {
          w.red = true;
          x = p;
          parent = p.parent;
        } else {
          if (!isRed(w.left)) {
            (w.right as PriceLevel).red = false;
            w.red = true;
            this.rotateLeft(w);
            w = p.left as PriceLevel;
          }
          w.red = p.red;
          p.red = false;
          (w.left as PriceLevel).red = false;
          this.rotateRight(p);
          x = this.root;
          parent = null;
        }
      }
    }
    if (x !== null) x.red = false;
  }

  private transplant(u: PriceLevel, v: PriceLevel | null): void {
    const up = u.parent;
    if (up === null) this.root = v;
    else if (u === up.left) up.left = v;
    else up.right = v;
    if (v !== null) v.parent = up;
  }

  private rotateLeft(x: PriceLevel): void {
    const y = x.right as PriceLevel;
    x.right = y.left;
    if (y.left !== null) y.left.parent = x;
    this.transplant(x, y);
    y.left = x;
    x.parent = y;
  }

  private rotateRight(x: PriceLevel): void {
    const y = x.left as PriceLevel;
    x.left = y.right;
    if (y.right !== null) y.right.parent = x;
    this.transplant(x, y);
    y.right = x;
    x.parent = y;
  }
}

function isRed(node: PriceLevel | null): boolean {
  return node !== null && node.red;
}

/** Checks every red-black invariant below `root`; throws on the first broken one. O(n). */
export function checkTree(root: PriceLevel | null): void {
  if (root === null) return;
  assert(!root.red && root.parent === null, 'price tree: root must be black and parentless');
  checkSubtree(root, -Infinity, Infinity);
}

function checkSubtree(node: PriceLevel | null, low: number, high: number): number {
  if (node === null) return 1;
  assert(node.key > low && node.key < high, 'price tree: keys out of order');
  assert(node.left === null || node.left.parent === node, 'price tree: broken parent link');
  assert(node.right === null || node.right.parent === node, 'price tree: broken parent link');
  assert(!(node.red && (isRed(node.left) || isRed(node.right))), 'price tree: red node with a red child');
  const left = checkSubtree(node.left, low, node.key);
  const right = checkSubtree(node.right, node.key, high);
  assert(left === right, 'price tree: unequal black heights');
  return left + (node.red ? 0 : 1);
}
