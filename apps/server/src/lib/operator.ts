// Console roles (docs/operator.md): viewer < operator < admin. A role is held in operator_roles; the
// configuration's OPERATOR_ADDRESSES are admins besides (the first admin of a new deployment, who
// grants the others). Every operator route names its least role in the contract and registerRoute
// checks it before the handler runs, so no route can forget the check.
import { sql } from 'drizzle-orm';
import { operatorRoles, type OperatorRole } from '@nadi/api/route';
import type { Db, Tx } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import type { AppDeps } from '../deps.ts';
import { AppError } from './app-error.ts';
import type { SessionContext } from './register-route.ts';

/** The user's console role, or null: the configured admins first, then operator_roles. */
export async function roleOf(
  deps: Pick<AppDeps, 'settings'> & { db: Db | Tx },
  session: Pick<SessionContext, 'userId' | 'address'>,
): Promise<OperatorRole | null> {
  if (deps.settings.operatorAddresses.includes(session.address.toLowerCase())) return 'admin';
  const row = rowsOf<{ role: string }>(await deps.db.execute(sql`select role from operator_roles where user_id = ${session.userId}`))[0];
  return operatorRoles.find((r) => r === row?.role) ?? null;
}

/** Whether `role` includes `least` (an admin may do what an operator may, and so on). */
export function hasRole(role: OperatorRole | null, least: OperatorRole): boolean {
  return role !== null && operatorRoles.indexOf(role) >= operatorRoles.indexOf(least);
}

/** FORBIDDEN unless the session's user holds `least` or more. */
export async function requireRole(deps: Pick<AppDeps, 'settings'> & { db: Db | Tx }, session: SessionContext, least: OperatorRole): Promise<OperatorRole> {
  const role = await roleOf(deps, session);
  if (!hasRole(role, least)) throw new AppError('FORBIDDEN');
  return role!;
}
