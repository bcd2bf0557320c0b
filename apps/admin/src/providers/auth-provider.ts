import { authRoutes } from '@nadi/api/auth';
import { operatorRoutes } from '@nadi/api/operator';
import type { AuthProvider } from '@refinedev/core';
import { ApiError, callRoute } from '../lib/api.ts';
import { clearSession, readSession, writeSession, type AdminSession } from '../lib/session.ts';
import { findWallet, utf8ToHex, walletErrorMessage, type Eip1193Provider } from '../lib/wallet.ts';

export interface SignInDeps {
  wallet: () => Promise<Eip1193Provider | null>;
  call: typeof callRoute;
}

/**
 * Signs in as the phone app does (docs/sign-in.md): the wallet's account asks for the EIP-4361
 * message, signs it with personal_sign, and trades the signature for a token; then the console
 * role is asked. No role is a session with role null (the "no console access" screen).
 */
export async function walletSignIn(deps: SignInDeps): Promise<AdminSession> {
  const wallet = await deps.wallet();
  if (!wallet) throw new Error('No wallet found. Install MetaMask (or another injected wallet) and reload.');
  let address: string;
  let signature: string;
  let message: string;
  try {
    const accounts = (await wallet.request({ method: 'eth_requestAccounts' })) as string[];
    if (!accounts[0]) throw new Error('The wallet shared no account.');
    address = accounts[0];
    ({ message } = await deps.call(authRoutes.loginMessage, { address }, { token: null }));
    signature = (await wallet.request({ method: 'personal_sign', params: [utf8ToHex(message), address] })) as string;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new Error(walletErrorMessage(error), { cause: error });
  }
  const { token } = await deps.call(authRoutes.login, { address, message, sign_message: signature, code: '' }, { token: null });
  try {
    const me = await deps.call(operatorRoutes.me, undefined, { token });
    return { token, address: me.address, role: me.role };
  } catch (error) {
    if (error instanceof ApiError && error.reason === 'FORBIDDEN') return { token, address, role: null };
    throw error;
  }
}

export function createAuthProvider(deps: SignInDeps = { wallet: () => findWallet(), call: callRoute }): AuthProvider {
  return {
    login: async () => {
      try {
        const session = await walletSignIn(deps);
        writeSession(session);
        return { success: true, redirectTo: session.role ? '/' : '/no-access' };
      } catch (error) {
        return { success: false, error: { name: 'Sign-in failed', message: error instanceof Error ? error.message : String(error) } };
      }
    },
    logout: async () => {
      const session = readSession();
      clearSession();
      if (session) await deps.call(authRoutes.logout, undefined, { token: session.token }).catch(() => undefined);
      return { success: true, redirectTo: '/login' };
    },
    check: async () => {
      const session = readSession();
      if (!session) return { authenticated: false, redirectTo: '/login' };
      if (!session.role) return { authenticated: false, redirectTo: '/no-access' };
      return { authenticated: true };
    },
    onError: async (error: unknown) => {
      // An ended session signs out; a missing role is shown where it happened (the server's message).
      if (error instanceof ApiError && error.status === 401) {
        clearSession();
        return { logout: true, redirectTo: '/login', error };
      }
      return {};
    },
    getPermissions: async () => readSession()?.role ?? null,
    getIdentity: async () => {
      const session = readSession();
      return session ? { id: session.address, name: `${session.address.slice(0, 6)}…${session.address.slice(-4)}`, role: session.role } : null;
    },
  };
}
