import type { FastifyInstance } from 'fastify';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';

/** Test helpers that sign in the way a wallet does: fetch the message, sign it, post it. */
export function newAccount(): PrivateKeyAccount {
  return privateKeyToAccount(generatePrivateKey());
}

export async function fetchMessage(app: FastifyInstance, address: string, host = 'localhost:8080'): Promise<string> {
  const res = await app.inject({ method: 'GET', url: `/api/v1/auth/loginMessage?address=${address}`, headers: { host } });
  if (res.statusCode !== 200) throw new Error(`loginMessage failed: ${res.statusCode} ${res.body}`);
  return res.json().data.message;
}

export async function postLogin(app: FastifyInstance, body: { address: string; message: string; sign_message: string; code?: string }, lang = 'EN') {
  return app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: body, headers: { lang } });
}

export async function signIn(app: FastifyInstance, account: PrivateKeyAccount, code?: string): Promise<string> {
  const message = await fetchMessage(app, account.address);
  const sign_message = await account.signMessage({ message });
  const res = await postLogin(app, { address: account.address, message, sign_message, ...(code ? { code } : {}) });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.json().data.token;
}
