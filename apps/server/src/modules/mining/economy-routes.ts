import type { FastifyInstance } from 'fastify';
import { economyRoutes } from '@nadi/api/mining';
import { approvalView } from '../../lib/approvals.ts';
import { registerRoute } from '../../lib/register-route.ts';
import { listEconomyParams, requestEconomyParam } from './economy-params.ts';

/** Operators: the economy numbers in force and their changes from a later epoch on. */
export async function economyModule(app: FastifyInstance) {
  const { deps } = app;
  registerRoute(app, economyRoutes.operatorParams, async () => {
    return listEconomyParams(deps);
  });
  registerRoute(app, economyRoutes.operatorSetParam, async ({ session, input }) => {
    return approvalView(await requestEconomyParam(deps, session.userId, input), session.address);
  });
}
