import { z } from 'zod/mini';
import { envelope, pageQuery, paged } from './common.ts';
import { route } from './route.ts';

// Devices of a user's received store orders that nobody has activated yet (docs/store.md): the store
// owns the route (storeRoutes.awaitingDevices is this one), the phone's mining screen lists them
// at its top, so they are a module of their own that loads without the rest of the store's contract.

/** A device from a completed order that nobody has activated yet (the mining screen lists them). */
export const awaitingDevice = z.object({
  serial: z.string(),
  model: z.string(),
  order_id: z.int(),
  order_no: z.string(),
  received_at: z.string(),
});

export const awaitingDevicesRoute = route({
  method: 'GET',
  path: '/api/v1/machine/awaitingActivation',
  input: pageQuery,
  response: envelope(paged(awaitingDevice)),
  auth: true,
  summary: 'Devices of my completed orders not activated yet (activate each with the code in its box)',
});
