// A simulated user of the chaos run: its own wallet, calling the API sealed through the proxy as
// the phone app does (packages/envelope/src/client.ts), and a record of every call it made: route,
// Idempotency-Key, what the server answered or that nothing came, with timestamps.
import { randomUUID } from 'node:crypto';
import { fetch } from 'undici';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { Lang } from '@nadi/api/common';
import { EnvelopeClient, type EnvelopeConfig } from '@nadi/envelope/client';
import type { Cluster } from '../cluster/types.ts';

/** How long a call may take before it counts as unanswered (a forwarded market command gives up at 10 s). */
export const callTimeoutMs = 15_000;

export interface ActionRecord {
  seq: number;
  user: string;
  lang: Lang;
  method: 'GET' | 'POST';
  route: string;
  idempotencyKey: string | null;
  body: unknown;
  /** ms since the epoch */
  start: number;
  end: number;
  /** HTTP status; null: no answer (network error or timeout). */
  status: number | null;
  code: number | null;
  reason: string | null;
  msg: string | null;
  data: unknown;
  /** The network error when there was no answer. */
  error: string | null;
  /** Set on the retries made after the run: the record retried. */
  retryOf: number | null;
}

export class Recorder {
  readonly actions: ActionRecord[] = [];
  add(record: Omit<ActionRecord, 'seq'>): ActionRecord {
    const full = { ...record, seq: this.actions.length };
    this.actions.push(full);
    return full;
  }
}

export type CallOptions = { body?: unknown; idempotencyKey?: string; retryOf?: number; token?: string | null };

/** A fresh key for a money-moving call (idempotency-key.ts accepts [A-Za-z0-9_-]{1,128}). */
export function newKey(): string {
  return randomUUID().replaceAll('-', '');
}

/** undici's error for a connection that closed with the request unanswered. */
function isClosedConnection(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } } | null)?.cause;
  return cause?.code === 'UND_ERR_SOCKET';
}

export class SimUser {
  readonly account: PrivateKeyAccount;
  readonly privateKey: `0x${string}`;
  token: string | null = null;
  userId = 0;
  private readonly envelope: EnvelopeClient;
  private readonly cluster: Cluster;
  private readonly recorder: Recorder;
  readonly lang: Lang;

  constructor(cluster: Cluster, recorder: Recorder, lang: Lang, privateKey?: `0x${string}`) {
    this.cluster = cluster;
    this.recorder = recorder;
    this.lang = lang;
    this.privateKey = privateKey ?? generatePrivateKey();
    this.account = privateKeyToAccount(this.privateKey);
    this.envelope = new EnvelopeClient({
      loadConfig: async () => {
        const response = await fetch(`${cluster.url}/api/v1/common/config`, { dispatcher: cluster.dispatcher, signal: AbortSignal.timeout(callTimeoutMs) });
        return ((await response.json()) as { data: { encryption: EnvelopeConfig } }).data.encryption;
      },
    });
  }

  get address(): string {
    return this.account.address;
  }

  /** One API call, sealed, recorded. Never throws: a failure is in the record. */
  async call(method: 'GET' | 'POST', pathAndQuery: string, options: CallOptions = {}): Promise<ActionRecord> {
    const start = Date.now();
    const token = options.token === undefined ? this.token : options.token;
    const base = {
      user: this.address,
      lang: this.lang,
      method,
      route: pathAndQuery.split('?')[0] ?? pathAndQuery,
      idempotencyKey: options.idempotencyKey ?? null,
      body: options.body ?? null,
      start,
      retryOf: options.retryOf ?? null,
    };
    try {
      const answer = await this.envelope.request(
        {
          method,
          pathAndQuery,
          ...(options.body === undefined ? {} : { body: options.body }),
          token,
          ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
          headers: { lang: this.lang },
        },
        async (url, init) => {
          const send = () =>
            fetch(`${this.cluster.url}${url}`, {
              ...init,
              dispatcher: this.cluster.dispatcher,
              signal: AbortSignal.timeout(callTimeoutMs),
            });
          // As a browser does: a read whose kept-alive connection closed before any answer (the
          // proxy closing it as the request left) goes once more, on a new connection. A write is
          // never resent here: its retry is the run's own, with its Idempotency-Key.
          const response = await send().catch((error: unknown) => {
            if (method === 'GET' && isClosedConnection(error)) return send();
            throw error;
          });
          // Read the body inside the timeout, so a stalled answer is no answer.
          const text = await response.text();
          return {
            status: response.status,
            headers: response.headers,
            json: async () => JSON.parse(text) as unknown,
          };
        },
      );
      const body = (answer.body ?? {}) as { code?: number; reason?: string; msg?: string; data?: unknown };
      return this.recorder.add({
        ...base,
        end: Date.now(),
        status: answer.status,
        code: typeof body.code === 'number' ? body.code : null,
        reason: body.reason ?? null,
        msg: body.msg ?? null,
        data: body.data ?? null,
        error: null,
      });
    } catch (error) {
      return this.recorder.add({
        ...base,
        end: Date.now(),
        status: null,
        code: null,
        reason: null,
        msg: null,
        data: null,
        error: describeError(error),
      });
    }
  }

  /** A socket URL whose token travels sealed, as the app opens /ws. */
  socketUrl(plainUrl: string): Promise<string> {
    return this.envelope.socketUrl(plainUrl);
  }

  /** SIWE: the message, signed by the user's key; a new address registers with `inviteCode`. */
  async signIn(inviteCode: string): Promise<boolean> {
    const nonce = await this.call('GET', `/api/v1/auth/loginMessage?address=${this.address}`, { token: null });
    const message = (nonce.data as { message?: string } | null)?.message;
    if (nonce.code !== 200 || !message) return false;
    const signature = await this.account.signMessage({ message });
    const login = await this.call('POST', '/api/v1/auth/login', {
      token: null,
      body: { address: this.address, message, sign_message: signature, code: inviteCode },
    });
    const token = (login.data as { token?: string } | null)?.token;
    if (login.code !== 200 || !token) return false;
    this.token = token;
    const info = await this.call('GET', '/api/v1/user/info');
    this.userId = (info.data as { id?: number } | null)?.id ?? 0;
    return this.userId > 0;
  }
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${(error.cause as Error & { code?: string }).code ?? error.cause.message})` : '';
  return `${error.name}: ${error.message}${cause}`;
}
