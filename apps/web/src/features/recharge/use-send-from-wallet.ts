import { useEffect, useReducer, useRef } from 'react';
import { runTransfer, transferSteps, type TokenTransfer, type TransferDeps, type TransferOutcome } from '../../lib/payment/transfer-flow.ts';
import { stepperReducer, stepperStateFor, type StepperEvent } from '../../lib/payment/stepper-state.ts';
import { session } from '../../lib/session.ts';
import { loadWallet } from '../../lib/wallet/load-wallet.ts';
import type { TransferStep } from '../../lib/payment/transfer-flow.ts';

async function createDeps(dispatch: (event: StepperEvent<TransferStep>) => void, isStopped: () => boolean): Promise<TransferDeps> {
  const [wallet, { createPaymentChain }] = await Promise.all([loadWallet(), import('../../lib/payment/payment-chain.ts')]);
  const chain = createPaymentChain(wallet, session.get().walletAddress);
  return { ...chain, onStep: (step) => dispatch({ type: 'step', step }), isStopped };
}

/**
 * Runs the wallet transfer of a recharge and keeps the stepper's state. `send` starts one attempt
 * (at most one transaction); a double tap while it runs is ignored, so one intent never sends twice.
 */
export function useSendFromWallet(onOutcome?: (outcome: TransferOutcome) => void) {
  const [state, dispatch] = useReducer(stepperReducer<TransferStep>, stepperStateFor(transferSteps));
  const isStoppedRef = useRef(false);
  const isRunningRef = useRef(false);
  useEffect(() => {
    isStoppedRef.current = false;
    return () => {
      isStoppedRef.current = true;
    };
  }, []);

  async function send(transfer: TokenTransfer): Promise<void> {
    if (isRunningRef.current) return;
    isRunningRef.current = true;
    dispatch({ type: 'start' });
    const isStopped = () => isStoppedRef.current;
    let outcome: TransferOutcome | null;
    try {
      outcome = await runTransfer(await createDeps(dispatch, isStopped), transfer);
    } catch {
      // The wallet module or the configuration could not load (offline): nothing was sent.
      dispatch({ type: 'step', step: 'install' });
      outcome = { kind: 'failed', step: 'install', reason: 'error' };
    } finally {
      isRunningRef.current = false;
    }
    if (!outcome || isStopped()) return;
    dispatch({ type: 'outcome', outcome });
    onOutcome?.(outcome);
  }

  return { state, send };
}
