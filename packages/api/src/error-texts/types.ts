import type { ErrorReason } from '../errors.ts';

/** One language's text for every error reason: a reason without a text fails the typecheck. */
export type ErrorTexts = Readonly<Record<ErrorReason, string>>;

/**
 * Fills "{{name}}" in an error text with the error's params (a missing one stays as written): the
 * server's way; the web's i18next reads the same placeholders.
 */
export function fillErrorText(text: string, params: Readonly<Record<string, string>> | undefined): string {
  return params ? text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => params[name] ?? whole) : text;
}
