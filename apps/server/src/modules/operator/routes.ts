import type { FastifyInstance } from 'fastify';
import { operatorRoutes } from '@nadi/api/operator';
import { operatorUserRoutes } from '@nadi/api/operator-users';
import { roleOf } from '../../lib/operator.ts';
import { AppError } from '../../lib/app-error.ts';
import { registerRoute } from '../../lib/register-route.ts';
import { decideApproval, listApprovals } from './approvals.ts';
import { exportAudit, listAudit } from './audit-log.ts';
import { listRoles, setRole } from './roles.ts';
import { dashboard, listUsers, pools, revokeSessions, runSettlement, setFrozen, settledEpochs, topUpPool, userDetail } from './service.ts';

/** The operator console's own API (docs/operator.md): who am I, roles, audit, approvals, users, platform. */
export async function operatorModule(app: FastifyInstance) {
  const { deps } = app;
  registerRoute(app, operatorRoutes.me, async ({ session }) => {
    const role = await roleOf(deps, session);
    if (!role) throw new AppError('FORBIDDEN');
    return { user_id: session.userId, address: session.address.toLowerCase(), role };
  });
  registerRoute(app, operatorRoutes.roles, async () => listRoles(deps));
  registerRoute(app, operatorRoutes.setRole, async ({ session, input }) => setRole(deps, session, input.address, input.role));
  registerRoute(app, operatorRoutes.audit, async ({ input }) => listAudit(deps, input));
  registerRoute(app, operatorRoutes.auditExport, async ({ input }) => exportAudit(deps, input));
  registerRoute(app, operatorRoutes.approvals, async ({ input }) => listApprovals(deps, input));
  registerRoute(app, operatorRoutes.approve, async ({ session, input }) => decideApproval(deps, session, 'approve', input.id, input.reason));
  registerRoute(app, operatorRoutes.rejectApproval, async ({ session, input }) => decideApproval(deps, session, 'reject', input.id, input.reason));
  const u = operatorUserRoutes;
  registerRoute(app, u.freeze, async ({ session, input }) => setFrozen(deps, session, input, true));
  registerRoute(app, u.unfreeze, async ({ session, input }) => setFrozen(deps, session, input, false));
  registerRoute(app, u.users, async ({ input }) => listUsers(deps, input));
  registerRoute(app, u.user, async ({ input }) => userDetail(deps, input.id));
  registerRoute(app, u.revokeSession, async ({ session, input }) => revokeSessions(deps, session, { sessionId: input.session_id }));
  registerRoute(app, u.revokeUserSessions, async ({ session, input }) => revokeSessions(deps, session, { userId: input.user_id }));
  registerRoute(app, u.dashboard, async ({ input }) => dashboard(deps, input.days));
  registerRoute(app, u.epochs, async ({ input }) => settledEpochs(deps, input));
  registerRoute(app, u.runSettlement, async ({ session }) => runSettlement(deps, session));
  registerRoute(app, u.pools, async () => pools(deps));
  registerRoute(app, u.poolTopup, async ({ session, input }) => topUpPool(deps, session, input));
}
