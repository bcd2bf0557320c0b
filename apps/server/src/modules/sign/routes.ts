import type { FastifyInstance } from 'fastify';

/** The daily sign-in API (docs/team.md "Daily sign-in"): sign/config, sign/operate, sign/list. */
export async function signModule(app: FastifyInstance) {
  void app;
}
