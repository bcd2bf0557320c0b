import type { FastifyInstance } from 'fastify';
import { pledgeRoutes } from '@nadi/api/pledge';
import { idempotencyKeyOf } from '../../lib/idempotency-key.ts';
import { optionalUserId } from '../auth/index.ts';
import { registerRoute } from '../../lib/register-route.ts';
import { claimInterest, getReceiveInfo } from './interest.ts';
import { joinPledge } from './join.ts';
import { operatorProducts, saveOperatorProduct } from './operator-products.ts';
import { redeemPosition, getPositions, getReleases } from './positions.ts';
import { getProduct, getProducts } from './products.ts';

/** The savings API (docs/nodes-and-savings.md "Savings"): products, joining, positions, releases, interest. */
export async function pledgeModule(app: FastifyInstance) {
  const { deps } = app;
  registerRoute(app, pledgeRoutes.list, async ({ request }) => getProducts(deps, await optionalUserId(deps, request)));
  registerRoute(app, pledgeRoutes.detail, async ({ request, input }) => getProduct(deps, await optionalUserId(deps, request), input.id));
  registerRoute(app, pledgeRoutes.join, async ({ session, input, request }) =>
    joinPledge(deps, session.userId, idempotencyKeyOf(request, session.userId, 'pledge_join'), input),
  );
  registerRoute(app, pledgeRoutes.records, async ({ session, input }) => getPositions(deps, session.userId, input));
  registerRoute(app, pledgeRoutes.releases, async ({ session, input }) => getReleases(deps, session.userId, input));
  registerRoute(app, pledgeRoutes.redeem, async ({ session, input }) => redeemPosition(deps, session.userId, input.id));
  registerRoute(app, pledgeRoutes.receiveInfo, async ({ session }) => getReceiveInfo(deps, session.userId));
  registerRoute(app, pledgeRoutes.receive, async ({ session, request }) =>
    claimInterest(deps, session.userId, idempotencyKeyOf(request, session.userId, 'pledge_receive')),
  );
  registerRoute(app, pledgeRoutes.operatorProducts, async () => operatorProducts(deps));
  registerRoute(app, pledgeRoutes.operatorSaveProduct, async ({ session, input }) => saveOperatorProduct(deps, session, input));
}
