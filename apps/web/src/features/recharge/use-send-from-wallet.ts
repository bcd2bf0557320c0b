import { runTransfer, transferSteps, type TokenTransfer, type TransferDeps, type TransferOutcome } from '../../lib/payment/transfer-flow.ts';
import { stepperStateFor, type StepperEvent } from '../../lib/payment/stepper-state.ts';
import { useStepperRun } from '../../lib/payment/use-stepper-run.ts';
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
  const { state, run } = useStepperRun(stepperStateFor(transferSteps), onOutcome);
  const send = (transfer: TokenTransfer) => run(async (dispatch, isStopped) => runTransfer(await createDeps(dispatch, isStopped), transfer));
  return { state, send };
}
