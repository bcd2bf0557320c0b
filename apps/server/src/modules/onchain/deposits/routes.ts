import type { FastifyInstance } from 'fastify';
import { onchainRoutes } from '@nadi/api/onchain';
import { registerRoute } from '../../../lib/register-route.ts';
import { rechargeAddress, rechargeList } from './service.ts';

export async function rechargeModule(app: FastifyInstance) {
  const { deps } = app;
  registerRoute(app, onchainRoutes.rechargeAddress, async ({ session }) => rechargeAddress(deps, session.userId));
  registerRoute(app, onchainRoutes.rechargeList, async ({ session, input }) => rechargeList(deps, session.userId, input));
}
