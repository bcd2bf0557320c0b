import type { ErrorTexts } from '@nadi/api/error-texts/types';

/**
 * A language's locale file with its error texts (the catalogue the server's `msg` reads too,
 * packages/api/src/error-texts) merged in: the `errors` namespace whole, and the field problems of
 * an amount and an address beside the `amount` and `address` namespaces' own texts.
 */
export function withErrorTexts<T extends { amount: object; address: object }>(
  messages: T,
  texts: ErrorTexts,
): T & { errors: ErrorTexts['errors']; amount: T['amount'] & ErrorTexts['amount']; address: T['address'] & ErrorTexts['address'] } {
  return {
    ...messages,
    errors: texts.errors,
    amount: { ...messages.amount, ...texts.amount },
    address: { ...messages.address, ...texts.address },
  };
}
