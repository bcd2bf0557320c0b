import type { FastifyInstance } from 'fastify';
import { operatorRoutes } from '@nadi/api/operator';
import { roleOf } from '../../lib/operator.ts';
import { AppError } from '../../lib/app-error.ts';
import { registerRoute } from '../../lib/register-route.ts';
import { decideApproval, listApprovals } from './approvals.ts';
import { exportAudit, listAudit } from './audit-log.ts';
import { listRoles, setRole } from './roles.ts';
import { platformRoutes } from './platform.ts';
import { userRoutes } from './users.ts';

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
  userRoutes(app);
  platformRoutes(app);
}
