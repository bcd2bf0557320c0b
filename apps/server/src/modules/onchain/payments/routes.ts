import type { FastifyInstance } from 'fastify';
import { onchainRoutes } from '@nadi/api/onchain';
import { registerRoute } from '../../../lib/register-route.ts';
import { assertNotFrozen } from '../../ledger/index.ts';
import { createTestOrder, getOrder } from './service.ts';

export async function paymentModule(app: FastifyInstance) {
  const { deps } = app;
  // Enough test orders for any manual test, not for filling the table: a per-route budget (config.ts routeLimitDefaults).
  registerRoute(app, onchainRoutes.testOrder, async ({ session, input }) => {
    await assertNotFrozen(deps.db, session.userId);
    return createTestOrder(deps, session.userId, input);
  });
  registerRoute(app, onchainRoutes.paymentOrder, async ({ session, input }) => getOrder(deps, session.userId, input.id));
}
