import { operatorRoles, type OperatorRole, type Route } from '@nadi/api/route';

/** Whether `role` includes `least` (viewer < operator < admin); no role includes nothing. */
export function hasRole(role: OperatorRole | null | undefined, least: OperatorRole): boolean {
  if (!role) return false;
  return operatorRoles.indexOf(role) >= operatorRoles.indexOf(least);
}

/**
 * Whether the console offers a route's action to this role: the least role is read from the route
 * object itself (`role` in the contract), the same field the server checks. Hiding is a courtesy;
 * the server refuses anyway.
 */
export function canCall(role: OperatorRole | null | undefined, route: Pick<Route, 'role'>): boolean {
  return route.role === undefined ? true : hasRole(role, route.role);
}
