// FNV-1a, 64-bit, over UTF-16 code units, in pure JS: deterministic across platforms and
// free of imports, so the state hash works wherever the engine runs. Not cryptographic:
// it detects divergence between replicas, it does not resist forgery.

const OFFSET_HI = 0xcbf29ce4;
const OFFSET_LO = 0x84222325;
// The FNV-64 prime is 2^40 + 0x1b3: multiply by 0x1b3 and add the value shifted left by 40.
const PRIME_LOW = 0x1b3;

export function fnv1a64(text: string): string {
  let hi = OFFSET_HI;
  let lo = OFFSET_LO;
  for (let i = 0; i < text.length; i++) {
    lo ^= text.charCodeAt(i);
    const loProduct = (lo & 0xffff) * PRIME_LOW;
    const loHighPart = (lo >>> 16) * PRIME_LOW + (loProduct >>> 16);
    const newLo = ((loHighPart & 0xffff) << 16) | (loProduct & 0xffff);
    // High word: hi × 0x1b3 + carry from the low word + (lo << 8) from the 2^40 term.
    const newHi = Math.imul(hi, PRIME_LOW) + (loHighPart >>> 16) + (lo << 8);
    lo = newLo >>> 0;
    hi = newHi >>> 0;
  }
  return hex32(hi) + hex32(lo);
}

function hex32(value: number): string {
  return value.toString(16).padStart(8, '0');
}
