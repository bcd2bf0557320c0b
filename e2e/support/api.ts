import { toHex } from 'viem';
import { inject } from 'vitest';

// The started stack's API and chain as a test reaches them outside the browser: to read what the
// server says (not what the screen says), and to act as the operator.

/** Hardhat #0: the root user and, in development, the operator (withdrawal reviews, notices). */
export const operatorAddress = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

export async function rpc(method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(inject('rpcUrl'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

export async function apiGet<T>(token: string, path: string): Promise<T> {
  const response = await fetch(`${inject('baseUrl')}${path}`, { headers: { authorization: token } });
  const body = (await response.json()) as { code: number; data: T };
  if (body.code !== 200) throw new Error(`${path}: ${JSON.stringify(body)}`);
  return body.data;
}

export async function apiPost<T>(token: string, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${inject('baseUrl')}${path}`, {
    method: 'POST',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { code: number; data: T };
  if (answer.code !== 200) throw new Error(`${path}: ${JSON.stringify(answer)}`);
  return answer.data;
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

/** The operator signs in through the API. */
export async function operatorToken(): Promise<string> {
  return tokenFor(operatorAddress);
}

/** The whole answer of a POST, refusals included: its HTTP status and envelope (`code`, `reason`, `msg`). */
export async function apiPostAnswer(token: string, path: string, body: unknown): Promise<{ status: number; code: number; reason?: string; msg?: string }> {
  const response = await fetch(`${inject('baseUrl')}${path}`, {
    method: 'POST',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { code: number; reason?: string; msg?: string };
  return { status: response.status, ...answer };
}
