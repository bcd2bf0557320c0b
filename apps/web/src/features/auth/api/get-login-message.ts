import { authRoutes, type LoginMessageData } from '@nadi/api/auth';
import { call } from '../../../lib/api-client.ts';

// The sign-in endpoints are steps of one flow (sign-in-flow.ts), run once per attempt with a
// single-use nonce; nothing about them is worth caching, so they have fetchers and no query hooks.

/** A fresh Sign-In with Ethereum message for this address. */
export function getLoginMessage(address: string): Promise<LoginMessageData> {
  return call(authRoutes.loginMessage, { address }, { isSilent: true });
}
