import { authRoutes, type LoginBody, type LoginData } from '@nadi/api/auth';
import { call } from '../../../lib/api-client.ts';

/** Sends the signed message; the caller handles INVITE_REQUIRED and INVITE_INVALID itself. */
export function login(body: LoginBody): Promise<LoginData> {
  return call(authRoutes.login, body, { isSilent: true });
}
