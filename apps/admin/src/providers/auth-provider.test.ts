import { authRoutes } from '@nadi/api/auth';
import { operatorRoutes } from '@nadi/api/operator';
import type { Route } from '@nadi/api/route';
import { describe, expect, it } from 'vitest';
import { ApiError, type callRoute } from '../lib/api.ts';
import { utf8ToHex, type Eip1193Provider } from '../lib/wallet.ts';
import { walletSignIn } from './auth-provider.ts';

const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

function wallet(log: { method: string; params?: unknown[] }[]): Eip1193Provider {
  return {
    request: async (args) => {
      log.push(args);
      if (args.method === 'eth_requestAccounts') return [address];
      if (args.method === 'personal_sign') return '0xsig';
      throw new Error(`unexpected ${args.method}`);
    },
  };
}

function api(meAnswer: () => unknown) {
  const calls: [string, unknown, unknown][] = [];
  const call = (async (route: Route, input?: unknown, options?: { token?: string | null }) => {
    calls.push([route.path, input, options?.token]);
    if (route === authRoutes.loginMessage) return { message: 'nadi.app wants you to sign in' };
    if (route === authRoutes.login) return { token: 'T1' };
    if (route === operatorRoutes.me) return meAnswer();
    throw new Error('unexpected route');
  }) as typeof callRoute;
  return { calls, call };
}

describe('wallet sign-in', () => {
  it('signs the server message with personal_sign, trades it for a token, then reads the role', async () => {
    const log: { method: string; params?: unknown[] }[] = [];
    const { calls, call } = api(() => ({ user_id: 1, address: address.toLowerCase(), role: 'operator' }));
    const session = await walletSignIn({ wallet: async () => wallet(log), call });
    expect(session).toEqual({ token: 'T1', address: address.toLowerCase(), role: 'operator' });
    expect(log[1]).toEqual({ method: 'personal_sign', params: [utf8ToHex('nadi.app wants you to sign in'), address] });
    expect(calls).toEqual([
      ['/api/v1/auth/loginMessage', { address }, null],
      ['/api/v1/auth/login', { address, message: 'nadi.app wants you to sign in', sign_message: '0xsig', code: '' }, null],
      ['/api/v1/operator/me', undefined, 'T1'],
    ]);
  });

  it('keeps a session without a role when the server answers FORBIDDEN (the "no console access" screen)', async () => {
    const { call } = api(() => {
      throw new ApiError('Forbidden', 403, 'FORBIDDEN');
    });
    expect(await walletSignIn({ wallet: async () => wallet([]), call })).toEqual({ token: 'T1', address, role: null });
  });

  it('says so when there is no wallet', async () => {
    await expect(walletSignIn({ wallet: async () => null, call: api(() => null).call })).rejects.toThrow(/No wallet found/);
  });
});
