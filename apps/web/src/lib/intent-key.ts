import { isApiError } from './api-client.ts';

/**
 * One user intent (a submission with given parameters) and the Idempotency-Key that names it to
 * the server (docs/ledger.md): a retry of the same intent must carry the same key, so a request
 * that went through before the answer was lost is not carried out twice.
 */
export interface Intent {
  key: string;
  fingerprint: string;
}

/** The pending intent when the same parameters are sent again; else a new intent with a fresh key. */
export function intentFor(pending: Intent | null, fingerprint: string, newKey: () => string): Intent {
  return pending?.fingerprint === fingerprint ? pending : { key: newKey(), fingerprint };
}

/**
 * True when the server answered that it did not carry the request out (a refusal with a reason).
 * No answer, a 5xx without a specific reason or an unreadable success leave the outcome unknown.
 */
export function isRefusal(error: unknown): boolean {
  if (!isApiError(error)) return false;
  const { kind, reason } = error.failure;
  if (kind === 'network' || kind === 'failed') return false;
  if (kind === 'server') return reason !== null && reason !== 'INTERNAL';
  return true;
}

/** After an answer: the intent stays pending (its key kept for a retry) only while its outcome is unknown. */
export function settleIntent(intent: Intent, error: unknown): Intent | null {
  return error !== null && error !== undefined && !isRefusal(error) ? intent : null;
}

/**
 * A random UUID v4. crypto.randomUUID exists only in secure contexts, and a phone testing the app
 * over plain HTTP on a local network is not one; getRandomValues works everywhere.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
