import type { TFunction } from '../../lib/translator.ts';
import { isApiError } from '../../lib/api-client.ts';
import { amountDigitsShown, formatMoney } from '../../lib/money-format.ts';

/**
 * The text for a refused mining request. DESTROY_BELOW_MIN is worded here with the minimum from the
 * error's params (formatted like every amount on screen); other reasons use the client's
 * translation of the reason, or the API client's message when there is no reason.
 */
export function refusalText(error: unknown, t: TFunction): string {
  if (!isApiError(error)) return t('api.failed');
  const { reason, params } = error.failure;
  if (reason === 'DESTROY_BELOW_MIN') return t('errors.DESTROY_BELOW_MIN', { amount: formatMoney(params.amount ?? '', amountDigitsShown) });
  if (reason !== null && error.failure.kind === 'bad-request') return t(`errors.${reason}`);
  return error.displayMessage;
}
