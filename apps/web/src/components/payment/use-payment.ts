import type { PaymentOrder } from '@nadi/api/onchain';
import { getPaymentOrder } from '../../lib/payment/get-payment-order.ts';
import { runPayment, type PaymentDeps, type PaymentOutcome } from '../../lib/payment/payment-flow.ts';
import { initialStepperState, type StepperEvent } from '../../lib/payment/stepper-state.ts';
import { useStepperRun } from '../../lib/payment/use-stepper-run.ts';
import { session } from '../../lib/session.ts';
import { loadWallet } from '../../lib/wallet/load-wallet.ts';

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function createDeps(dispatch: (event: StepperEvent) => void, isStopped: () => boolean): Promise<PaymentDeps> {
  const [wallet, { createPaymentChain }] = await Promise.all([loadWallet(), import('../../lib/payment/payment-chain.ts')]);
  const chain = createPaymentChain(wallet, session.get().walletAddress);
  return {
    ...chain,
    getOrder: (id) => getPaymentOrder(id),
    sleep,
    now: Date.now,
    onStep: (step) => dispatch({ type: 'step', step }),
    onConfirmations: (count, required) => dispatch({ type: 'confirmations', count, required }),
    isStopped,
  };
}

/**
 * Runs the payment flow for an order and keeps the stepper's state. `start` may be called again
 * after any end but success; it reads the order first, so a payment that went through meanwhile
 * is waited for rather than sent twice.
 */
export function usePayment(order: PaymentOrder, onOutcome?: (outcome: PaymentOutcome) => void) {
  const { state, run } = useStepperRun(initialStepperState, onOutcome);
  const start = () =>
    run(async (dispatch, isStopped) => {
      const [deps, latest] = await Promise.all([createDeps(dispatch, isStopped), getPaymentOrder(order.id).catch(() => order)]);
      return runPayment(deps, latest);
    });
  return { state, start };
}
