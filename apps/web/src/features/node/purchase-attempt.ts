// A node purchase attempt and its Idempotency-Key, kept in session storage (docs/product.md section 3: payment
// info) so that neither a lost answer nor a refresh can buy twice. An attempt is one tier, pay method
// and asset; its key is sent with every submit of it. The body whose outcome is unknown is kept and
// sent again as it was (the server then answers the first purchase); a refusal changed nothing, so the
// next submit may send a newer quote's price under the same key. A wallet purchase keeps its body until
// the stepper has paid: buying again opens the same payment order instead of holding a second unit.
import { z } from 'zod/mini';
import { nodePayAssets, nodePayMethods } from '@nadi/api/node';
import { isRefusal, newIdempotencyKey } from '../../lib/intent-key.ts';
import type { PaymentOutcome } from '../../lib/payment/payment-flow.ts';
import { readItem, removeItem, storageKeys, writeItem } from '../../lib/storage.ts';
import type { NodeBuyRequest, PurchaseChoice } from './purchase.ts';

const choiceShape = {
  tier_id: z.int().check(z.gte(1)),
  pay_method: z.enum(nodePayMethods),
  pay_asset: z.enum(nodePayAssets),
};

const attemptSchema = z.object({
  ...choiceShape,
  request_key: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,128}$/)),
  /** What was sent under the key without a known outcome (or a wallet order not yet paid): sent again as it was. */
  sent: z.nullable(z.object({ ...choiceShape, price: z.optional(z.string().check(z.maxLength(64))) })),
});
export type PurchaseAttempt = z.infer<typeof attemptSchema>;

function isSameChoice(a: PurchaseChoice, b: PurchaseChoice): boolean {
  return a.tier_id === b.tier_id && a.pay_method === b.pay_method && a.pay_asset === b.pay_asset;
}

/** The attempt for the choice on screen: the stored one when it is the same choice, else a new one with a fresh key. */
export function attemptFor(choice: PurchaseChoice, stored: PurchaseAttempt | null, newKey: () => string = newIdempotencyKey): PurchaseAttempt {
  if (stored && isSameChoice(stored, choice)) return stored;
  return { tier_id: choice.tier_id, pay_method: choice.pay_method, pay_asset: choice.pay_asset, request_key: newKey(), sent: null };
}

/** Whether the stored attempt is this choice's with a body already sent (a wallet order not yet paid): submitting continues it. */
export function isResumable(stored: PurchaseAttempt | null, choice: PurchaseChoice): boolean {
  return stored !== null && stored.sent !== null && isSameChoice(stored, choice);
}

/** What to send: the body already sent under the key when its outcome is unknown, else the fresh one. */
export function submissionOf(attempt: PurchaseAttempt, fresh: NodeBuyRequest): { key: string; body: NodeBuyRequest } {
  return { key: attempt.request_key, body: attempt.sent ?? fresh };
}

export type AttemptOutcome =
  /** The node is held: the attempt is over, the next purchase is another one. */
  | { kind: 'bought' }
  /** A wallet payment order exists: kept until the stepper has paid it. */
  | { kind: 'awaiting-payment' }
  /** The request failed; `error` tells whether the server refused it (nothing changed) or the outcome is unknown. */
  | { kind: 'failed'; error: unknown };

/** The attempt after an answer to `body`: null once it is over. */
export function settleAttempt(attempt: PurchaseAttempt, body: NodeBuyRequest, outcome: AttemptOutcome): PurchaseAttempt | null {
  if (outcome.kind === 'bought') return null;
  if (outcome.kind === 'failed' && isRefusal(outcome.error)) return { ...attempt, sent: null };
  return { ...attempt, sent: body };
}

/**
 * After the wallet stepper: a paid order (confirmed, or on chain and still being confirmed) ends the
 * attempt, and so does one the server rejected (its order id is used up, a new purchase needs a new
 * order). Anything else (cancelled, short of gas, a wrong network) is tried again with the same order.
 */
export function isAttemptOverAfterPayment(outcome: PaymentOutcome): boolean {
  if (outcome.kind === 'success' || outcome.kind === 'pending') return true;
  return outcome.kind === 'failed' && outcome.reason === 'order-rejected';
}

export function readAttempt(): PurchaseAttempt | null {
  const raw = readItem('session', storageKeys.nodePurchase);
  if (!raw) return null;
  try {
    const parsed = attemptSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function saveAttempt(attempt: PurchaseAttempt | null): void {
  if (attempt === null) removeItem('session', storageKeys.nodePurchase);
  else writeItem('session', storageKeys.nodePurchase, JSON.stringify(attempt));
}
