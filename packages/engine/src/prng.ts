// Seeded pseudo-random generator (sfc32) for tests and benchmarks. The engine itself never
// draws random numbers; generators use this so every stream can be regenerated from its seed.
import { assert } from './assert.ts';

export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    assert(Number.isSafeInteger(seed), 'prng: seed must be a safe integer');
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = (seed ^ Math.floor(seed / 0x1_0000_0000)) >>> 0;
    // Warm up so that nearby seeds give unrelated streams.
    for (let i = 0; i < 16; i++) this.nextU32();
  }

  nextU32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  nextFloat(): number {
    return this.nextU32() / 0x1_0000_0000;
  }

  /** Uniform integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number {
    assert(hi >= lo, 'prng: empty range');
    return lo + Math.floor(this.nextFloat() * (hi - lo + 1));
  }

  chance(probability: number): boolean {
    return this.nextFloat() < probability;
  }

  pick<T>(items: readonly T[]): T {
    assert(items.length > 0, 'prng: pick from empty list');
    return items[Math.floor(this.nextFloat() * items.length)] as T;
  }
}
