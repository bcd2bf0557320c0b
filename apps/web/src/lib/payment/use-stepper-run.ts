import { useEffect, useReducer, useRef } from 'react';
import type { PaymentOutcome } from './payment-flow.ts';
import { stepperReducer, type StepperEvent, type StepperState } from './stepper-state.ts';

/** One attempt of a wallet flow: it reports its steps through `dispatch` and answers its outcome (null: stopped). */
export type StepperAttempt<S extends string> = (dispatch: (event: StepperEvent<S>) => void, isStopped: () => boolean) => Promise<PaymentOutcome<S> | null>;

/**
 * A wallet flow's stepper state and its runner, shared by the order payment and the recharge's
 * transfer. One attempt at a time: a double tap while one runs is ignored, so one intent never
 * starts two flows (two approvals, two payments). Nothing is reported after the screen is gone. A
 * wallet module or configuration that cannot load (offline) ends the attempt as failed at
 * `install`, with nothing sent.
 */
export function useStepperRun<S extends string>(initial: StepperState<S>, onOutcome?: (outcome: PaymentOutcome<S>) => void) {
  const [state, dispatch] = useReducer(stepperReducer<S>, initial);
  const isStoppedRef = useRef(false);
  const isRunningRef = useRef(false);
  useEffect(() => {
    isStoppedRef.current = false;
    return () => {
      isStoppedRef.current = true;
    };
  }, []);

  async function run(attempt: StepperAttempt<S>): Promise<void> {
    if (isRunningRef.current) return;
    isRunningRef.current = true;
    dispatch({ type: 'start' });
    const isStopped = () => isStoppedRef.current;
    let outcome: PaymentOutcome<S> | null;
    try {
      outcome = await attempt(dispatch, isStopped);
    } catch {
      const install = 'install' as S;
      dispatch({ type: 'step', step: install });
      outcome = { kind: 'failed', step: install, reason: 'error' };
    } finally {
      isRunningRef.current = false;
    }
    if (!outcome || isStopped()) return;
    dispatch({ type: 'outcome', outcome });
    onOutcome?.(outcome);
  }

  return { state, run };
}
