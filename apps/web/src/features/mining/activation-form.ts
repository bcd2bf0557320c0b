import { activationCodeMax } from '@nadi/api/mining';

export type ActivationCodeProblem = 'REQUIRED' | 'TOO_LONG';

export type ActivationCodeCheck = { ok: true; code: string } | { ok: false; problem: ActivationCodeProblem };

/**
 * docs/product.md section 5: the activation code must be entered. Spaces around it are dropped (codes are
 * copied from a printed card or a message) and it is sent upper-case, the server's normal form:
 * codes are case-insensitive.
 */
export function checkActivationCode(text: string): ActivationCodeCheck {
  const code = text.trim();
  if (code.length === 0) return { ok: false, problem: 'REQUIRED' };
  if (code.length > activationCodeMax) return { ok: false, problem: 'TOO_LONG' };
  return { ok: true, code: code.toUpperCase() };
}

export function activationProblemMessage(problem: ActivationCodeProblem): { key: string; params: Record<string, string> } {
  if (problem === 'TOO_LONG') return { key: 'mining.activate.tooLong', params: { max: String(activationCodeMax) } };
  return { key: 'mining.activate.required', params: {} };
}
