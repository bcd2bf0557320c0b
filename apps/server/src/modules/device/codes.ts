// Activation codes (docs/economy.md, "Activation codes"): 16 characters from an alphabet without
// the look-alikes 0/O and 1/I, grouped by four (ABCD-EFGH-JKLM-NPQR), drawn from the system's CSPRNG:
// 32 symbols, so 80 random bits a code. Only the SHA-256 of the normalised code is stored.
import { createHash, randomBytes } from 'node:crypto';

export const codeAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const codeLength = 16;
const groupLength = 4;

/** A fresh code. 32 symbols divide 256, so `byte % 32` is unbiased. */
export function generateCode(): string {
  const bytes = randomBytes(codeLength);
  const symbols = Array.from(bytes, (b) => codeAlphabet[b % codeAlphabet.length]).join('');
  return group(symbols);
}

function group(symbols: string): string {
  return (symbols.match(new RegExp(`.{1,${groupLength}}`, 'g')) ?? []).join('-');
}

const ungroupedCode = new RegExp(`^[${codeAlphabet}]{${codeLength}}$`);

/**
 * Trim and upper-case (the design's rule). A code of our format typed without its dashes, or with
 * spaces instead, is grouped again so it still matches; anything else is kept as typed.
 */
export function normalizeCode(input: string): string {
  const upper = input.trim().toUpperCase();
  const bare = upper.replace(/[\s-]/g, '');
  return ungroupedCode.test(bare) ? group(bare) : upper;
}

export function hashCode(normalized: string): string {
  return createHash('sha256').update(normalized, 'utf8').digest('hex');
}
