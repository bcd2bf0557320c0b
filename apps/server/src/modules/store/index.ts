// The store module's public surface (docs/store.md): the user and operator API of products and
// orders (routes.ts), delivery addresses (address-routes.ts), and what other modules call: the
// fulfilment of store orders paid on chain (the payment watcher's) and the store job.
import type { FastifyInstance } from 'fastify';
import { addressRoutes } from './address-routes.ts';
import { orderRoutes } from './routes.ts';

export { fulfilStoreOrder } from './payment.ts';
export { runStoreRound, startStoreJob, storeJobIntervalMs, type StoreJob, type StoreRound } from './job.ts';

export async function storeModule(app: FastifyInstance) {
  await orderRoutes(app);
  await addressRoutes(app);
}
export { ordersToShipCount, userStoreOrders } from './console-repo.ts';
