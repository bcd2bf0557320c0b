import type { FastifyInstance } from 'fastify';
import { teamRoutes } from '@nadi/api/team';
import { registerRoute } from '../../lib/register-route.ts';
import { getTeamInfo } from './info.ts';
import { getRewardLines } from './lines.ts';
import { getDirects } from './members.ts';
import { getRanking } from './ranking-view.ts';

/** The team API (docs/team.md): team/info, user/zhiList, user/ranking, team/rewards. */
export async function teamModule(app: FastifyInstance) {
  const { deps } = app;
  registerRoute(app, teamRoutes.info, async ({ session }) => getTeamInfo(deps, session.userId));
  registerRoute(app, teamRoutes.zhiList, async ({ session, input }) => getDirects(deps, session.userId, input));
  registerRoute(app, teamRoutes.ranking, async ({ session }) => getRanking(deps, session.userId));
  registerRoute(app, teamRoutes.rewards, async ({ session, input }) => getRewardLines(deps, session.userId, input));
}
