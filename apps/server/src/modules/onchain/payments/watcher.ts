import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../../deps.ts';
import type { ChainContext, Worker } from '../chain.ts';

// SCAFFOLD (issue 5, payments helper replaces this file).
export function startPaymentWatcher(_deps: AppDeps, _chain: ChainContext, _log: FastifyBaseLogger): Worker {
  return { name: 'payments', stop: async () => {} };
}
