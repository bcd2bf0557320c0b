import type { FastifyInstance } from 'fastify';
import { nodeRoutes } from '@nadi/api/node';
import { idempotencyKeyOf } from '../../lib/idempotency-key.ts';
import { optionalUserId } from '../auth/index.ts';
import { registerRoute } from '../../lib/register-route.ts';
import { assertNotFrozen } from '../ledger/index.ts';
import { myEarnings, myNodes } from './holdings.ts';
import { buyNode, quoteNode } from './purchase.ts';
import { nodeTier, nodeTiers, operatorTiers, saveTier } from './tiers.ts';

/** The node API (packages/api/src/node.ts). */
export async function nodeModule(app: FastifyInstance) {
  const { deps } = app;
  registerRoute(app, nodeRoutes.list, async ({ request }) => nodeTiers(deps, await optionalUserId(deps, request)));
  registerRoute(app, nodeRoutes.detail, async ({ request, input }) => nodeTier(deps, await optionalUserId(deps, request), input.id));
  registerRoute(app, nodeRoutes.quote, async ({ session, input }) => quoteNode(deps, session.userId, input));
  // A wallet purchase holds a unit for its payment window: a per-route budget (config.ts routeLimitDefaults).
  registerRoute(app, nodeRoutes.buy, async ({ session, input, request }) => {
    await assertNotFrozen(deps.db, session.userId);
    return buyNode(deps, session.userId, idempotencyKeyOf(request, session.userId, 'node_buy'), input);
  });
  registerRoute(app, nodeRoutes.mine, async ({ session, input }) => myNodes(deps, session.userId, input));
  registerRoute(app, nodeRoutes.earnings, async ({ session, input }) => myEarnings(deps, session.userId, input));
  registerRoute(app, nodeRoutes.operatorTiers, async () => operatorTiers(deps));
  registerRoute(app, nodeRoutes.operatorSaveTier, async ({ session, input }) => saveTier(deps, session, input));
}
