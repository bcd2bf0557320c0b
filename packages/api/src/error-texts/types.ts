import type { ParseError } from '@nadi/money/money';
import type { ErrorReason } from '../errors.ts';
import type { AddressErrorKey } from '../store-address.ts';

/**
 * One language's error texts: one for every error reason (`errors`), and for the field problems the
 * contract names in its issues (`amount.<problem>` of an amount, `address.<problem>` of a delivery
 * address). A missing text fails the typecheck.
 */
export interface ErrorTexts {
  readonly errors: Readonly<Record<ErrorReason, string>>;
  readonly amount: Readonly<Record<ParseError, string>>;
  readonly address: Readonly<Record<AddressErrorKey, string>>;
}

/**
 * Fills "{{name}}" in an error text with the error's params (a missing one stays as written): the
 * server's way; the web's i18next reads the same placeholders.
 */
export function fillErrorText(text: string, params: Readonly<Record<string, string>> | undefined): string {
  return params ? text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => params[name] ?? whole) : text;
}
