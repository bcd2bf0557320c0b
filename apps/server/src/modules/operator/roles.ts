// Console roles (docs/operator.md "Roles"): who holds one, and an admin granting, changing or taking
// one away. The configured admins (OPERATOR_ADDRESSES) are not in the table and cannot be changed here.
import type { OperatorRole } from '@nadi/api/route';
import type { OperatorRoleItem } from '@nadi/api/operator';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import type { SessionContext } from '../../lib/register-route.ts';
import { addressesOf, findUserByAddress, usersByAddresses } from '../user/index.ts';
import { lockRole, roleRows, writeRole } from './repo.ts';

export async function listRoles(deps: AppDeps): Promise<OperatorRoleItem[]> {
  const configured = deps.settings.operatorAddresses;
  const known = await usersByAddresses(deps.db, configured);
  const admins: OperatorRoleItem[] = known.map((u) => ({
    user_id: Number(u.id),
    address: u.address,
    role: 'admin',
    is_configured: true,
    granted_by: null,
    granted_at: null,
  }));
  const roles = await roleRows(deps.db);
  const addresses = await addressesOf(
    deps.db,
    roles.map((r) => Number(r.user_id)),
  );
  const rows = roles.flatMap((r) => {
    const address = addresses.get(Number(r.user_id));
    return address === undefined ? [] : [{ ...r, address }];
  });
  const listed = rows
    .filter((r) => !configured.includes(r.address))
    .map((r) => ({
      user_id: Number(r.user_id),
      address: r.address,
      role: r.role,
      is_configured: false,
      granted_by: r.granted_by === null ? null : Number(r.granted_by),
      granted_at: new Date(r.granted_at).toISOString(),
    }));
  return [...admins, ...listed];
}

/** Grants, changes or (role null) takes away a registered user's role, with its audit line. */
export async function setRole(deps: AppDeps, session: SessionContext, address: string, role: OperatorRole | null) {
  const lower = address.toLowerCase();
  if (deps.settings.operatorAddresses.includes(lower)) throw new AppError('FORBIDDEN', 'a configured admin (OPERATOR_ADDRESSES)');
  const at = deps.now();
  await deps.db.transaction(async (tx) => {
    const user = await findUserByAddress(tx, lower);
    if (!user) throw new AppError('NOT_FOUND');
    const before = await lockRole(tx, user.id);
    await writeRole(tx, user.id, role, session.userId, at);
    await recordAudit(tx, {
      actorId: session.userId,
      action: 'role.set',
      targetType: 'user',
      targetId: user.id,
      before: { address: lower, role: before },
      after: { address: lower, role },
      at,
    });
  });
  return { address: lower, role };
}
