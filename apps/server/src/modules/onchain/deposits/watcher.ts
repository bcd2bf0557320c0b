import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../../deps.ts';
import type { ChainContext, Worker } from '../chain.ts';

// SCAFFOLD (issue 5, deposits helper replaces this file).
export function startDepositWatcher(_deps: AppDeps, _chain: ChainContext, _log: FastifyBaseLogger): Worker {
  return { name: 'deposits', stop: async () => {} };
}
