import type { FastifyInstance } from 'fastify';
import { sealRequest, type ClientSeal } from '@nadi/envelope/envelope';
import { newAccount } from './sign-in.ts';

/** Two envelope keys for tests: "k2" current, "k1" kept for a rotation. */
export const testEnvelopeKeys = `k2:${'Aa1_'.repeat(11)}, k1:${'Bb2-'.repeat(11)}`;

export interface SealedCall {
  seal: ClientSeal;
  statusCode: number;
  /** The answer as the client reads it: opened when sealed, else the plain body. */
  body: () => Promise<{ code: number; reason?: string; msg: string; data?: unknown }>;
  rawBody: string;
}

/**
 * Calls a route the way the web's api-client does with encryption on: reads the published key from
 * the config, seals {input, token, idempotencyKey} and posts the form to the route's own path.
 */
export async function sealedInject(
  app: FastifyInstance,
  call: { method: 'GET' | 'POST'; path: string; input?: unknown; token?: string; idempotencyKey?: string; now: number; kid?: string; lang?: string },
): Promise<SealedCall> {
  const config = (await app.inject({ method: 'GET', url: '/api/v1/common/config' })).json().data.encryption as { keys: { kid: string; public_key: string }[] };
  const key = config.keys.find((k) => k.kid === (call.kid ?? config.keys[0]?.kid)) ?? config.keys[0];
  if (!key) throw new Error('the config publishes no envelope key');
  const seal = await sealRequest({
    kid: call.kid ?? key.kid,
    publicKey: key.public_key,
    method: call.method,
    path: call.path,
    payload: { input: call.input ?? {}, ...(call.token ? { token: call.token } : {}), ...(call.idempotencyKey ? { idempotencyKey: call.idempotencyKey } : {}) },
    now: call.now,
  });
  return postSealed(app, call.path, seal, call.lang);
}

/** Posts an already sealed form (a replay, or one whose fields a test changed). */
export async function postSealed(app: FastifyInstance, path: string, seal: ClientSeal, lang = 'EN'): Promise<SealedCall> {
  const response = await app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded', lang },
    payload: new URLSearchParams({ ...seal.form }).toString(),
  });
  const rawBody = response.body;
  return {
    seal,
    statusCode: response.statusCode,
    rawBody,
    body: async () => {
      const parsed = JSON.parse(rawBody) as { sealed?: string };
      return (typeof parsed.sealed === 'string' ? await seal.openResponse(parsed.sealed) : parsed) as {
        code: number;
        reason?: string;
        msg: string;
        data?: unknown;
      };
    },
  };
}

/** Signs a new account in through sealed calls only, as the web does with encryption on. */
export async function sealedSignIn(t: { app: FastifyInstance; clock: { now(): Date } }, code: string): Promise<{ token: string; address: string }> {
  const account = newAccount();
  const now = () => t.clock.now().getTime();
  const messageCall = await sealedInject(t.app, { method: 'GET', path: '/api/v1/auth/loginMessage', input: { address: account.address }, now: now() });
  const message = ((await messageCall.body()).data as { message: string }).message;
  const sign_message = await account.signMessage({ message });
  const login = await sealedInject(t.app, {
    method: 'POST',
    path: '/api/v1/auth/login',
    input: { address: account.address, message, sign_message, code },
    now: now(),
  });
  const answer = await login.body();
  if (answer.code !== 200) throw new Error(`sealed login failed: ${JSON.stringify(answer)}`);
  return { token: (answer.data as { token: string }).token, address: account.address };
}
