import { z } from 'zod';
import { envelope } from './common.ts';
import { operatorRoles, route } from './route.ts';

// The operator console's own API (docs/operator.md). Routes of other domains that operators call
// live with their domain (withdrawals in onchain.ts, shipping in store.ts…) and name their role too.

export const operatorMe = z.object({
  user_id: z.number().int(),
  address: z.string(),
  role: z.enum(operatorRoles),
});
export type OperatorMe = z.infer<typeof operatorMe>;

export const operatorRoutes = {
  me: route({
    method: 'GET',
    path: '/api/v1/operator/me',
    input: undefined,
    response: envelope(operatorMe),
    auth: true,
    role: 'viewer',
    summary: "The signed-in operator's console role (FORBIDDEN without one)",
  }),
};
