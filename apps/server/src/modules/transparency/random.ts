// The randomness of the trees (docs/transparency.md, "Privacy"): how many parts a user's amounts are
// split into, where each part's cut falls, and the leaves' order. All of it from node:crypto, read in
// blocks so a million users cost a few hundred block reads rather than millions of calls.
import { randomFillSync } from 'node:crypto';

/** Bytes read from the operating system at a time. */
const blockBytes = 64 * 1024;

export interface TreeRandom {
  /** A uniform whole number in [0, n), n ≤ 2^32. */
  below(n: number): number;
  /** A uniform bigint in [0, bound] (bound ≥ 0, below 2^128). */
  upTo(bound: bigint): bigint;
}

export class CryptoRandom implements TreeRandom {
  private block = new Uint8Array(blockBytes);
  private view = new DataView(this.block.buffer);
  private at = blockBytes;

  private take(bytes: number): number {
    if (this.at + bytes > blockBytes) {
      randomFillSync(this.block);
      this.at = 0;
    }
    const offset = this.at;
    this.at += bytes;
    return offset;
  }

  private u32(): number {
    return this.view.getUint32(this.take(4));
  }

  below(n: number): number {
    if (!Number.isInteger(n) || n < 1 || n > 2 ** 32) throw new RangeError(`below(${n})`);
    // Rejection sampling: the largest multiple of n under 2^32 keeps every value equally likely.
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      const x = this.u32();
      if (x < limit) return x % n;
    }
  }

  upTo(bound: bigint): bigint {
    if (bound < 0n || bound >= 1n << 128n) throw new RangeError(`upTo(${bound})`);
    if (bound === 0n) return 0n;
    const mask = (1n << BigInt(bound.toString(2).length)) - 1n;
    for (;;) {
      const offset = this.take(16);
      const x = ((this.view.getBigUint64(offset) << 64n) | this.view.getBigUint64(offset + 8)) & mask;
      if (x <= bound) return x;
    }
  }
}

/** A uniformly random order of 0..n-1 (Fisher–Yates). */
export function shuffledOrder(n: number, random: TreeRandom): Uint32Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i += 1) order[i] = i;
  for (let i = n - 1; i > 0; i -= 1) {
    const j = random.below(i + 1);
    const t = order[i]!;
    order[i] = order[j]!;
    order[j] = t;
  }
  return order;
}
