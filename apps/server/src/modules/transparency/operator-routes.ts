// The transparency module's operator routes that reach the chain (packages/api/src/transparency.ts):
// publishing a snapshot's roots (operator) and registering a reserve address (admin), both audited.
import type { FastifyInstance } from 'fastify';
import { transparencyRoutes } from '@nadi/api/transparency';
import { registerRoute } from '../../lib/register-route.ts';
import { operatorPublish } from './publish.ts';
import { registerReserve } from './reserves.ts';

export async function transparencyOperatorModule(app: FastifyInstance) {
  const { deps } = app;
  registerRoute(app, transparencyRoutes.operatorPublish, async ({ session, input, request }) => operatorPublish(deps, session, input.id, request.log));
  registerRoute(app, transparencyRoutes.operatorReserves, async ({ session, input }) => registerReserve(deps, session, input));
}
