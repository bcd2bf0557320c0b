import type { FastifyInstance } from 'fastify';
import { onchainRoutes } from '@nadi/api/onchain';
import { registerRoute } from '../../../lib/register-route.ts';
import { assertNotFrozen } from '../../ledger/index.ts';
import { createTestOrder, getOrder } from './service.ts';

/** Test orders per client address and minute: enough for any manual test, not for filling the table. */
const testOrdersPerMinuteMax = 30;

export async function paymentModule(app: FastifyInstance) {
  const { deps } = app;
  registerRoute(
    app,
    onchainRoutes.testOrder,
    async ({ session, input }) => {
      await assertNotFrozen(deps.db, session.userId);
      return createTestOrder(deps, session.userId, input);
    },
    {
      rateLimitPerMinute: testOrdersPerMinuteMax,
    },
  );
  registerRoute(app, onchainRoutes.paymentOrder, async ({ session, input }) => getOrder(deps, session.userId, input.id));
}
