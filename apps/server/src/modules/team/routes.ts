import type { FastifyInstance } from 'fastify';

/** The team API (docs/team.md): team/info, user/zhiList, user/ranking, team/rewards. */
export async function teamModule(app: FastifyInstance) {
  void app;
}
