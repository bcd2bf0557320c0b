import type { FastifyInstance } from 'fastify';
import { addressRoutes as routes } from '@nadi/api/store-address';
import { registerRoute } from '../../lib/register-route.ts';
import { addAddress, editAddress, getMyAddress, getMyDefaultAddress, listMyAddresses, removeAddress, setDefaultAddress } from './address-service.ts';

/** The delivery address API (docs/store.md, "Addresses"); every route acts on the caller's own addresses only. */
export async function addressRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  registerRoute(app, routes.list, async ({ session }) => listMyAddresses(db, session.userId));
  registerRoute(app, routes.detail, async ({ session, input }) => getMyAddress(db, session.userId, input.id));
  registerRoute(app, routes.getDefault, async ({ session }) => getMyDefaultAddress(db, session.userId));
  registerRoute(app, routes.add, async ({ session, input }) => addAddress(app.deps, session.userId, input));
  registerRoute(app, routes.edit, async ({ session, input }) => editAddress(app.deps, session.userId, input.id, input));
  registerRoute(app, routes.remove, async ({ session, input }) => removeAddress(app.deps, session.userId, input.id));
  registerRoute(app, routes.setDefault, async ({ session, input }) => setDefaultAddress(app.deps, session.userId, input.id));
}
