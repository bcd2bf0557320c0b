import { toHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { inject } from 'vitest';
import { EnvelopeClient, type EnvelopeConfig } from '@nadi/envelope/client';
import { jsonRpc } from './json-rpc.ts';

// The started stack's API and chain as a test reaches them outside the browser: to read what the
// server says (not what the screen says), and to act as the operator.

/** Hardhat #0: the root user and, in development, the operator (withdrawal reviews, notices). */
export const operatorAddress = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

export function rpc(method: string, params: unknown[]): Promise<unknown> {
  return jsonRpc(inject('rpcUrl'), method, params);
}

const envelopes = new Map<string, EnvelopeClient>();

/**
 * One API call as the apps make it: sealed when the server's config says so (the suite runs with
 * ENCRYPTION on as well as off; docs/envelope.md), plain otherwise. `path` may carry a GET's query.
 * Answers the HTTP status and the (opened) envelope.
 */
export async function apiCall(
  baseUrl: string,
  method: 'GET' | 'POST',
  pathAndQuery: string,
  options: { token?: string | null; body?: unknown; idempotencyKey?: string } = {},
): Promise<{ status: number; body: { code: number; msg?: string; reason?: string; data?: unknown } }> {
  let envelope = envelopes.get(baseUrl);
  if (!envelope) {
    envelope = new EnvelopeClient({
      loadConfig: async () => ((await (await fetch(`${baseUrl}/api/v1/common/config`)).json()) as { data: { encryption: EnvelopeConfig } }).data.encryption,
    });
    envelopes.set(baseUrl, envelope);
  }
  const answer = await envelope.request({ method, pathAndQuery, ...options }, (url, init) => fetch(`${baseUrl}${url}`, init));
  return answer as Awaited<ReturnType<typeof apiCall>>;
}

/** The data of a successful call on `baseUrl` (the shared stack by default); anything else throws. */
export async function apiData<T>(token: string | null, method: 'GET' | 'POST', path: string, body?: unknown, baseUrl: string = inject('baseUrl')): Promise<T> {
  const answer = await apiCall(baseUrl, method, path, { token, body });
  if (answer.body.code !== 200) throw new Error(`${path}: ${JSON.stringify(answer.body)}`);
  return answer.body.data as T;
}

export async function apiGet<T>(token: string, path: string): Promise<T> {
  return apiData<T>(token, 'GET', path);
}

export async function apiPost<T>(token: string, path: string, body: unknown): Promise<T> {
  return apiData<T>(token, 'POST', path, body);
}

/**
 * Signs `address` in through the API: the node signs the SIWE message for its unlocked account. A new
 * address registers with `inviteCode`; a registered one passes ''.
 */
export async function tokenFor(address: string, inviteCode = ''): Promise<string> {
  const { message } = await apiGet<{ message: string }>('', `/api/v1/auth/loginMessage?address=${address}`);
  const signature = await rpc('personal_sign', [toHex(message), address]);
  const data = await apiPost<{ token: string }>('', '/api/v1/auth/login', { address, message, sign_message: signature, code: inviteCode });
  return data.token;
}

/**
 * Registers a new account with a fresh local key (signed here, not by the node) through the API,
 * with `inviteCode`: a user no other file knows.
 */
export async function signInFreshKey(inviteCode: string): Promise<{ token: string; walletAddress: string }> {
  const account = privateKeyToAccount(generatePrivateKey());
  const { message } = await apiGet<{ message: string }>('', `/api/v1/auth/loginMessage?address=${account.address}`);
  const signature = await account.signMessage({ message: { raw: toHex(message) } });
  const { token } = await apiPost<{ token: string }>('', '/api/v1/auth/login', {
    address: account.address,
    message,
    sign_message: signature,
    code: inviteCode,
  });
  return { token, walletAddress: account.address };
}

/** The operator signs in through the API. */
export async function operatorToken(): Promise<string> {
  return tokenFor(operatorAddress);
}

/** The whole answer of a POST, refusals included: its HTTP status and envelope (`code`, `reason`, `msg`). */
export async function apiPostAnswer(token: string, path: string, body: unknown): Promise<{ status: number; code: number; reason?: string; msg?: string }> {
  const answer = await apiCall(inject('baseUrl'), 'POST', path, { token, body });
  return { status: answer.status, ...answer.body };
}
