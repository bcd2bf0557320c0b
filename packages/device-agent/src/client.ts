// A small client of the NADI API for the agent: the {code, msg, data} envelope, refusals as
// ApiRefusal with their reason, and the wallet sign-in (SIWE message signed with a private key).
import type { Hex } from 'viem';
import { EnvelopeClient, type EnvelopeConfig } from '@nadi/envelope/client';
import { privateKeyToAccount } from 'viem/accounts';

export interface HttpRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}
export interface HttpResponse {
  status: number;
  json(): Promise<unknown>;
}
/** `fetch`, or anything that answers like it (tests pass one that calls Fastify's inject). */
export type FetchLike = (url: string, init: HttpRequest) => Promise<HttpResponse>;

/** The server refused a request with a reason of the contract (errors.ts). */
export class ApiRefusal extends Error {
  override name = 'ApiRefusal';
  readonly status: number;
  readonly reason: string;
  readonly params: Record<string, string> | undefined;

  constructor(path: string, status: number, reason: string, message: string, params?: Record<string, string>) {
    super(`${path}: ${reason} (${message})`);
    this.status = status;
    this.reason = reason;
    this.params = params;
  }
}

interface Envelope {
  code: number;
  msg: string;
  data: unknown;
  reason?: string;
  params?: Record<string, string>;
}

export class NadiClient {
  readonly baseUrl: string;
  private readonly fetchImpl: FetchLike;
  token: string | null = null;
  /** The request envelope (docs/envelope.md), used when the server's config turns it on. */
  private readonly envelope: EnvelopeClient;

  constructor(baseUrl: string, fetchImpl: FetchLike = fetch as FetchLike) {
    this.baseUrl = baseUrl.replace(/\/$/, '');
    this.fetchImpl = fetchImpl;
    this.envelope = new EnvelopeClient({
      loadConfig: async () => {
        const response = await this.fetchImpl(`${this.baseUrl}/api/v1/common/config`, { method: 'GET', headers: {} });
        return ((await response.json()) as { data: { encryption: EnvelopeConfig } }).data.encryption;
      },
    });
  }

  async get<T>(path: string): Promise<T> {
    return this.request<T>('GET', path);
  }

  async post<T>(path: string, body: unknown): Promise<T> {
    return this.request<T>('POST', path, body);
  }

  private async request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    // Devices' own routes stay plain (they sign their heartbeats); the operator's calls are sealed
    // when the server asks for it.
    const answer = await this.envelope.request({ method, pathAndQuery: path, body, token: this.token, headers: { lang: 'EN' } }, (url, init) =>
      this.fetchImpl(`${this.baseUrl}${url}`, init),
    );
    const status = answer.status;
    const envelope = answer.body as Envelope;
    if (envelope.code !== 200) throw new ApiRefusal(path, status, envelope.reason ?? 'UNKNOWN', envelope.msg, envelope.params);
    return envelope.data as T;
  }

  /** Signs in as the wallet of `privateKey` (an invite code registers a new address); keeps the session token. */
  async signIn(privateKey: Hex, inviteCode?: string): Promise<string> {
    const account = privateKeyToAccount(privateKey);
    const { message } = await this.get<{ message: string }>(`/api/v1/auth/loginMessage?address=${account.address}`);
    const signature = await account.signMessage({ message });
    const { token } = await this.post<{ token: string }>('/api/v1/auth/login', {
      address: account.address,
      message,
      sign_message: signature,
      ...(inviteCode ? { code: inviteCode } : {}),
    });
    this.token = token;
    return token;
  }
}
