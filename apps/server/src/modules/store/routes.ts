import type { FastifyInstance } from 'fastify';
import { storeRoutes } from '@nadi/api/store';
import { idempotencyKeyOf } from '../../lib/idempotency-key.ts';
import { registerRoute } from '../../lib/register-route.ts';
import { assertNotFrozen } from '../ledger/index.ts';
import { changeProductStock, operatorProducts, saveProduct, shopProduct, shopProducts } from './products.ts';
import { operatorOrders, refundOrder, shipOrder } from './operator-orders.ts';
import { awaitingActivation, cancelOrder, confirmReceipt, createOrder, getMyOrder, listMyOrders } from './orders.ts';
import { quoteOrder } from './quote.ts';

/** The store's user and operator API (packages/api/src/store.ts); delivery addresses are address-routes.ts. */
export async function orderRoutes(app: FastifyInstance) {
  const { deps } = app;
  registerRoute(app, storeRoutes.products, async ({ input, lang }) => shopProducts(deps, input, lang));
  registerRoute(app, storeRoutes.product, async ({ input, lang }) => shopProduct(deps, input.id, lang));
  registerRoute(app, storeRoutes.quote, async ({ session, input }) => quoteOrder(deps, session.userId, input));
  // An unpaid (chain) order holds stock for its payment window: a per-route budget (config.ts routeLimitDefaults).
  registerRoute(app, storeRoutes.createOrder, async ({ session, input, request }) => {
    await assertNotFrozen(deps.db, session.userId);
    return createOrder(deps, session.userId, idempotencyKeyOf(request, session.userId, 'store_order'), input);
  });
  registerRoute(app, storeRoutes.orderList, async ({ session, input }) => listMyOrders(deps, session.userId, input));
  registerRoute(app, storeRoutes.orderDetail, async ({ session, input }) => getMyOrder(deps, session.userId, input.id));
  registerRoute(app, storeRoutes.receipt, async ({ session, input }) => confirmReceipt(deps, session.userId, input.id));
  registerRoute(app, storeRoutes.cancel, async ({ session, input }) => cancelOrder(deps, session.userId, input.id));
  registerRoute(app, storeRoutes.awaitingDevices, async ({ session, input }) => awaitingActivation(deps, session.userId, input));
  registerRoute(app, storeRoutes.operatorProducts, async ({ session, input }) => operatorProducts(deps, session, input));
  registerRoute(app, storeRoutes.operatorSaveProduct, async ({ session, input }) => saveProduct(deps, session, input));
  registerRoute(app, storeRoutes.operatorStock, async ({ session, input }) => changeProductStock(deps, session, input));
  registerRoute(app, storeRoutes.operatorOrders, async ({ session, input }) => operatorOrders(deps, session, input));
  registerRoute(app, storeRoutes.operatorShip, async ({ session, input }) => shipOrder(deps, session, input));
  registerRoute(app, storeRoutes.operatorRefund, async ({ session, input }) => refundOrder(deps, session, input.id, input.reason));
}
