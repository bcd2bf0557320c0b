import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { chainContext, type Worker } from './chain.ts';
import { startDepositWatcher } from './deposits/watcher.ts';
import { startPaymentWatcher } from './payments/watcher.ts';
import { startWithdrawalSender } from './withdrawals/sender.ts';

/** Starts the chain workers of this process: deposit and payment scanners, withdrawal sender. */
export function startChainWorkers(deps: AppDeps, log: FastifyBaseLogger): Worker[] {
  const chain = chainContext(deps.settings);
  return [startDepositWatcher(deps, chain, log), startPaymentWatcher(deps, chain, log), startWithdrawalSender(deps, chain, log)];
}
