import { useRef } from 'react';
import { intentFor, newIdempotencyKey, settleIntent, type Intent } from './intent-key.ts';

/**
 * The Idempotency-Key of a form's submissions: `keyFor` returns the pending key when the same
 * parameters are submitted again after an unknown outcome, a fresh one otherwise; `settle` is
 * called with the answer (null on success).
 */
export function useIntentKey() {
  const pending = useRef<Intent | null>(null);
  return {
    keyFor(params: object): string {
      pending.current = intentFor(pending.current, JSON.stringify(params), newIdempotencyKey);
      return pending.current.key;
    },
    settle(error: unknown): void {
      if (pending.current) pending.current = settleIntent(pending.current, error);
    },
  };
}
