import type { AppDeps } from '../deps.ts';
import { AppError } from './app-error.ts';
import type { SessionContext } from './register-route.ts';

/**
 * Operators are the wallet addresses in OPERATOR_ADDRESSES, signed in like anyone else. The
 * configuration is the one source: an address removed from it loses the role at its next request.
 */
export function requireOperator(deps: AppDeps, session: SessionContext): void {
  if (!deps.settings.operatorAddresses.includes(session.address.toLowerCase())) throw new AppError('FORBIDDEN');
}
