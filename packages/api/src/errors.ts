// The closed list of expected failures. The server answers with one of these reasons; the web
// turns each into a translated message through its `errors.<reason>` locale key. Adding a reason
// here is the only way to add a new kind of failure.

export const errorReasons = [
  'BAD_REQUEST',
  'PAYLOAD_TOO_LARGE',
  'UNAUTHORIZED',
  'SESSION_EXPIRED',
  'FORBIDDEN',
  'NOT_FOUND',
  'RATE_LIMITED',
  'INTERNAL',
  'INVITE_REQUIRED',
  'INVITE_INVALID',
  'SIWE_MALFORMED',
  'SIWE_WRONG_DOMAIN',
  'SIWE_WRONG_URI',
  'SIWE_WRONG_CHAIN',
  'SIWE_WRONG_ADDRESS',
  'SIWE_EXPIRED',
  'SIWE_NOT_YET_VALID',
  'SIWE_NONCE_INVALID',
  'SIWE_SIGNATURE_INVALID',
  'INSUFFICIENT_BALANCE',
  'IDEMPOTENCY_CONFLICT',
  'QUOTE_EXPIRED',
  'QUOTE_MISMATCH',
  'SAME_ACCOUNT',
  'PRICE_UNAVAILABLE',
  'AMOUNT_TOO_SMALL',
  'IDEMPOTENCY_KEY_INVALID',
  'WITHDRAW_BELOW_MIN',
  'WITHDRAW_NOT_PENDING',
  'CHAIN_UNAVAILABLE',
  'ORDER_PRICE_INVALID',
  'ORDER_QUANTITY_INVALID',
  'ORDER_BELOW_MIN_NOTIONAL',
  'ORDER_LIMIT_REACHED',
  'MARKET_UNAVAILABLE',
] as const;

export type ErrorReason = (typeof errorReasons)[number];

/**
 * HTTP status and envelope body code for each reason, following the spec's error catalogue:
 * HTTP 401 with body code 200 means "enter via an invite code"; any other 401 means the session
 * is gone; 403 no permission; 400 shows the server message; 429 "request too frequent".
 */
export const errorStatus: Record<ErrorReason, { http: number; body: number }> = {
  BAD_REQUEST: { http: 400, body: 400 },
  PAYLOAD_TOO_LARGE: { http: 413, body: 400 },
  UNAUTHORIZED: { http: 401, body: 401 },
  SESSION_EXPIRED: { http: 401, body: 401 },
  FORBIDDEN: { http: 403, body: 403 },
  NOT_FOUND: { http: 404, body: 404 },
  RATE_LIMITED: { http: 429, body: 429 },
  INTERNAL: { http: 500, body: 500 },
  INVITE_REQUIRED: { http: 401, body: 200 },
  INVITE_INVALID: { http: 400, body: 400 },
  SIWE_MALFORMED: { http: 400, body: 400 },
  SIWE_WRONG_DOMAIN: { http: 400, body: 400 },
  SIWE_WRONG_URI: { http: 400, body: 400 },
  SIWE_WRONG_CHAIN: { http: 400, body: 400 },
  SIWE_WRONG_ADDRESS: { http: 400, body: 400 },
  SIWE_EXPIRED: { http: 400, body: 400 },
  SIWE_NOT_YET_VALID: { http: 400, body: 400 },
  SIWE_NONCE_INVALID: { http: 400, body: 400 },
  SIWE_SIGNATURE_INVALID: { http: 400, body: 400 },
  INSUFFICIENT_BALANCE: { http: 400, body: 400 },
  IDEMPOTENCY_CONFLICT: { http: 409, body: 409 },
  QUOTE_EXPIRED: { http: 400, body: 400 },
  QUOTE_MISMATCH: { http: 400, body: 400 },
  SAME_ACCOUNT: { http: 400, body: 400 },
  PRICE_UNAVAILABLE: { http: 503, body: 500 },
  AMOUNT_TOO_SMALL: { http: 400, body: 400 },
  IDEMPOTENCY_KEY_INVALID: { http: 400, body: 400 },
  WITHDRAW_BELOW_MIN: { http: 400, body: 400 },
  WITHDRAW_NOT_PENDING: { http: 409, body: 409 },
  CHAIN_UNAVAILABLE: { http: 503, body: 500 },
  ORDER_PRICE_INVALID: { http: 400, body: 400 },
  ORDER_QUANTITY_INVALID: { http: 400, body: 400 },
  ORDER_BELOW_MIN_NOTIONAL: { http: 400, body: 400 },
  ORDER_LIMIT_REACHED: { http: 400, body: 400 },
  MARKET_UNAVAILABLE: { http: 503, body: 500 },
};

export function isErrorReason(value: unknown): value is ErrorReason {
  return typeof value === 'string' && (errorReasons as readonly string[]).includes(value);
}
