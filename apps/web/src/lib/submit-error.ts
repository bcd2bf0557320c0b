import type { ErrorReason } from '@nadi/api/errors';
import { isApiError } from './api-client.ts';
import { notify } from './notify.ts';

/** Refusals about the amount itself, shown under the amount field rather than in a toast. */
const amountReasons: readonly ErrorReason[] = ['INSUFFICIENT_BALANCE', 'AMOUNT_TOO_SMALL', 'WITHDRAW_BELOW_MIN'];

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

/** After a refused submit of an amount form: the amount's problem under the field, anything else in a toast. */
export function showSubmitError(error: unknown, setFieldError: (text: string) => void, translate: (key: string) => string): void {
  const fieldText = amountErrorText(error);
  if (fieldText) setFieldError(fieldText);
  else notify(submitErrorText(error, translate), 'fail');
}
