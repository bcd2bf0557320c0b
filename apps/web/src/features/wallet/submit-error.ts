import type { ErrorReason } from '@nadi/api/errors';
import { isApiError } from '../../lib/api-client.ts';

/** Refusals about the amount itself, shown under the amount field rather than in a toast. */
const amountReasons: readonly ErrorReason[] = ['INSUFFICIENT_BALANCE', 'AMOUNT_TOO_SMALL'];

/**
 * The text for the amount field after a refused submit: the server's translated field message
 * (BAD_REQUEST with `fields.amount`) or the translated reason; null when the failure is not about
 * the amount, and a toast says it instead.
 */
export function amountErrorText(error: unknown): string | null {
  if (!isApiError(error)) return null;
  const { fields, reason } = error.failure;
  if (fields.amount) return fields.amount;
  return reason !== null && amountReasons.includes(reason) ? error.displayMessage : null;
}

/** Translated text for a toast: the API client's message, or the generic failure. */
export function submitErrorText(error: unknown, translate: (key: string) => string): string {
  return isApiError(error) ? error.displayMessage : translate('api.failed');
}
