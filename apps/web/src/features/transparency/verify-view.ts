import type { VerifyStep } from '@nadi/proof/proof';
import { shortAddress } from '../../lib/format.ts';
import { amountDigitsShown } from '../../lib/money-format.ts';
import { amountsText, sumDigits } from './transparency-format.ts';
import type { VerifyOutcome } from './verify-run.ts';

// A check's steps as sentences (docs/transparency.md, "Checking your own figures"): each step is a
// locale key under `transparency.step` with its values, and whether it held.

export interface StepLine {
  /** Key under `transparency.step`. */
  key: string;
  params: Record<string, string | number>;
  ok: boolean;
  /** The publishing transaction, shown as a link to the explorer after the sentence. */
  txHash?: string;
}

/** U+2060 WORD JOINER: no line break on either side of the ellipsis, so a short hash stays one word. */
const joiner = '\u2060';

/** Hashes on a phone: enough to compare with another screen, the whole one in the downloaded proof. */
export function shortHash(hash: string): string {
  return shortAddress(hash, 10, 8).replace('…', `${joiner}…${joiner}`);
}

function publishedLine(outcome: VerifyOutcome, step: Extract<VerifyStep, { kind: 'published' }>): StepLine {
  if (outcome.chainError) return { key: outcome.chainError === 'wrong_chain' ? 'wrongChain' : 'chainUnreachable', params: {}, ok: false };
  if (step.published === null) return { key: 'notPublished', params: { root: shortHash(step.root) }, ok: false };
  if (!step.ok) return { key: 'publishedMismatch', params: { root: shortHash(step.root), published: shortHash(step.published) }, ok: false };
  const block = outcome.onChain ? String(outcome.onChain.publishedBlock) : '';
  return outcome.txHash
    ? { key: 'publishedInTx', params: { root: shortHash(step.root), block }, ok: true, txHash: outcome.txHash }
    : { key: 'publishedInBlock', params: { root: shortHash(step.root), block }, ok: true };
}

function lineOf(step: VerifyStep, outcome: VerifyOutcome, input: { userId: number; dims: readonly string[]; labelOf: (dim: string) => string }): StepLine {
  const amounts = (sums: readonly string[], digits = amountDigitsShown) => amountsText(input.dims, sums, input.labelOf, digits);
  switch (step.kind) {
    case 'user_key':
      return { key: 'userKey', params: { id: input.userId, key: shortHash(step.key) }, ok: true };
    case 'leaf':
      return { key: step.ok ? 'leaf' : 'leafNegative', params: { part: step.part + 1, hash: shortHash(step.hash), amounts: amounts(step.sums) }, ok: step.ok };
    case 'climb': {
      const key = !step.ok ? 'climbNegative' : step.side === 'left' ? 'climbLeft' : 'climbRight';
      return { key, params: { level: step.level, hash: shortHash(step.hash), amounts: amounts(step.sums) }, ok: step.ok };
    }
    case 'root':
      return step.ok
        ? { key: 'root', params: { part: step.part + 1, hash: shortHash(step.hash) }, ok: true }
        : { key: 'rootMismatch', params: { part: step.part + 1, hash: shortHash(step.hash), expected: shortHash(step.expected) }, ok: false };
    case 'total':
      return step.ok || step.expected === null
        ? { key: 'total', params: { amounts: amounts(step.sums) }, ok: step.ok }
        : // Every digit, so that a difference beyond the eighth decimal still shows.
          { key: 'totalDiffers', params: { amounts: amounts(step.sums, sumDigits), expected: amounts(step.expected, sumDigits) }, ok: false };
    case 'published':
      return publishedLine(outcome, step);
  }
}

/** Every step of a check, in order, as a sentence to translate. */
export function stepLines(outcome: VerifyOutcome, input: { userId: number; dims: readonly string[]; labelOf: (dim: string) => string }): StepLine[] {
  return outcome.result.steps.map((step) => lineOf(step, outcome, input));
}
