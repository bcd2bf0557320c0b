import { useState } from 'react';
import { amountProblemKey, checkAmount, visibleProblem, type AmountCheck, type AmountLimits } from './amount-check.ts';

/**
 * The state of an amount field: the text, its check against what is available, and the message
 * to show (a server refusal until the text changes, else the field's own problem).
 */
export function useAmountInput(availableUnits: bigint | null, limits: AmountLimits = {}) {
  const [text, setTextState] = useState('');
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const check = checkAmount(text, availableUnits, limits);
  const problem = visibleProblem(check, hasTriedSubmit);

  function setText(next: string): void {
    setTextState(next);
    setHasTriedSubmit(false);
    setServerError(null);
  }

  /** Marks a submit attempt, so every problem shows; returns the check to send or stop on. */
  function trySubmit(): AmountCheck {
    setHasTriedSubmit(true);
    return check;
  }

  return { text, setText, check, problem, errorKey: problem ? amountProblemKey(problem) : null, serverError, setServerError, trySubmit };
}
