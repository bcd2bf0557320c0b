// Console roles (docs/operator.md "Roles"): who holds one, and an admin granting, changing or taking
// one away. The configured admins (OPERATOR_ADDRESSES) are not in the table and cannot be changed here.
import { sql } from 'drizzle-orm';
import type { OperatorRole } from '@nadi/api/route';
import type { OperatorRoleItem } from '@nadi/api/operator';
import type { AppDeps } from '../../deps.ts';
import { rowsOf } from '../../db/rows.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import type { SessionContext } from '../../lib/register-route.ts';
import { findUserByAddress } from '../user/index.ts';

export async function listRoles(deps: AppDeps): Promise<OperatorRoleItem[]> {
  const configured = deps.settings.operatorAddresses;
  const known = rowsOf<{ id: number; address: string }>(
    configured.length === 0
      ? { rows: [] }
      : await deps.db.execute(
          sql`select id, address from users where address in (${sql.join(
            configured.map((a) => sql`${a}`),
            sql`, `,
          )})`,
        ),
  );
  const admins: OperatorRoleItem[] = known.map((u) => ({
    user_id: Number(u.id),
    address: u.address,
    role: 'admin',
    is_configured: true,
    granted_by: null,
    granted_at: null,
  }));
  const rows = rowsOf<{ user_id: number; address: string; role: OperatorRole; granted_by: number | null; granted_at: Date }>(
    await deps.db.execute(sql`
      select r.user_id, u.address, r.role, r.granted_by, r.granted_at from operator_roles r join users u on u.id = r.user_id
      order by r.granted_at, r.user_id`),
  );
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
    const before = rowsOf<{ role: string }>(await tx.execute(sql`select role from operator_roles where user_id = ${user.id} for update`))[0]?.role ?? null;
    if (role === null) await tx.execute(sql`delete from operator_roles where user_id = ${user.id}`);
    else
      await tx.execute(sql`
        insert into operator_roles (user_id, role, granted_by, granted_at) values (${user.id}, ${role}, ${session.userId}, ${at})
        on conflict (user_id) do update set role = excluded.role, granted_by = excluded.granted_by, granted_at = excluded.granted_at`);
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
