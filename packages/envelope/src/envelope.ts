// The production request envelope (docs/product.md sections 3 "Config" and 7; docs/envelope.md): a request is
// sealed to the server's published public key with HPKE (RFC 9180: DHKEM(X25519, HKDF-SHA256),
// HKDF-SHA256, AES-128-GCM) and the response is sealed with a key exported from the same context, so
// only the client that sent the request can read its answer. The same code runs in the browser and in
// Node (WebCrypto through @hpke/core); nothing secret is ever in the web bundle.
//
// The four form fields (docs/product.md section 7):
//   handshake  "v1.<kid>.<enc>": the key id and the encapsulated ephemeral key (base64url)
//   timestamp  the client's clock in milliseconds (the server allows ±60 s)
//   sign       HMAC-SHA256 under an exported key over method, path, timestamp and data
//   data       the ciphertext of {query | body, token, idempotency key}; its AAD binds method, path,
//              timestamp and handshake too
import { Aes128Gcm, CipherSuite, DhkemX25519HkdfSha256, HkdfSha256, type RecipientContext, type SenderContext } from '@hpke/core';

export const envelopeVersion = 'v1';
/** How far a request's timestamp may be from the server's clock, either way. */
export const envelopeSkewMs = 60_000;

const suite = new CipherSuite({ kem: new DhkemX25519HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes128Gcm() });
// WebCrypto's key types, named without the DOM lib (the package type-checks for Node and the browser).
type KeyPair = Awaited<ReturnType<typeof suite.kem.deriveKeyPair>>;
type SubtleKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const signLabel = encoder.encode('nadi-envelope v1 sign');
const responseLabel = encoder.encode('nadi-envelope v1 response');

/** Why a sealed request is refused; the server answers each with its own error reason. */
export type EnvelopeFailure = 'malformed' | 'unknown_key' | 'stale' | 'tampered' | 'replayed';

export class EnvelopeError extends Error {
  readonly failure: EnvelopeFailure;
  constructor(failure: EnvelopeFailure, message: string) {
    super(message);
    this.name = 'EnvelopeError';
    this.failure = failure;
  }
}

/** The form fields of a sealed request. */
export interface SealedRequest {
  handshake: string;
  timestamp: string;
  sign: string;
  data: string;
}

/** What travels inside: the route's input, and the headers that must not be seen in clear. */
export interface EnvelopePayload {
  /** GET: the query; other methods: the JSON body. */
  input: unknown;
  token?: string;
  idempotencyKey?: string;
}

export function toBase64Url(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let binary = '';
  for (const byte of view) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new EnvelopeError('malformed', 'not base64url');
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The server's key pair, derived from a 32-byte secret seed (so a key is one configured string). */
export interface EnvelopeKey {
  kid: string;
  keyPair: KeyPair;
  /** The raw public key, base64url: what `common/config` publishes. */
  publicKey: string;
}

export async function envelopeKeyFromSeed(kid: string, seed: string): Promise<EnvelopeKey> {
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(kid)) throw new Error(`envelope key id "${kid}" must be 1-32 letters, digits, _ or -`);
  const ikm = fromBase64Url(seed);
  if (ikm.length < 32) throw new Error(`envelope key "${kid}": the seed must be at least 32 bytes (base64url)`);
  const keyPair = await suite.kem.deriveKeyPair(ikm);
  return { kid, keyPair, publicKey: toBase64Url(await suite.kem.serializePublicKey(keyPair.publicKey)) };
}

/** A fresh random seed for `envelopeKeyFromSeed` (development keeps one in its data folder). */
export function newEnvelopeSeed(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}

function requestAad(method: string, path: string, timestamp: string, handshake: string): Uint8Array {
  return encoder.encode(`${method.toUpperCase()} ${path}\n${timestamp}\n${handshake}`);
}

function signedText(method: string, path: string, timestamp: string, data: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(`${method.toUpperCase()}\n${path}\n${timestamp}\n${data}`);
}

async function hmacKey(context: SenderContext | RecipientContext): Promise<SubtleKey> {
  const raw = await context.export(signLabel, 32);
  return crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
}

async function responseKey(context: SenderContext | RecipientContext): Promise<SubtleKey> {
  const raw = await context.export(responseLabel, 16);
  return crypto.subtle.importKey('raw', raw, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
}

/** The client's side of one request: the form to post and how to open the answer. */
export interface ClientSeal {
  form: SealedRequest;
  openResponse(sealed: string): Promise<unknown>;
}

/**
 * Seals one request to the server's public key (from `common/config`). `path` is the URL path
 * without its query (a GET's query travels inside); `now` is the client's clock.
 */
export async function sealRequest(options: {
  kid: string;
  publicKey: string;
  method: string;
  path: string;
  payload: EnvelopePayload;
  now?: number;
}): Promise<ClientSeal> {
  const recipientPublicKey = await suite.kem.deserializePublicKey(fromBase64Url(options.publicKey));
  const context = await suite.createSenderContext({ recipientPublicKey, info: encoder.encode(`nadi-envelope ${envelopeVersion} ${options.kid}`) });
  const handshake = `${envelopeVersion}.${options.kid}.${toBase64Url(context.enc)}`;
  const timestamp = String(Math.trunc(options.now ?? Date.now()));
  const plaintext = encoder.encode(JSON.stringify(options.payload));
  const data = toBase64Url(await context.seal(plaintext, requestAad(options.method, options.path, timestamp, handshake)));
  const sign = toBase64Url(await crypto.subtle.sign('HMAC', await hmacKey(context), signedText(options.method, options.path, timestamp, data)));
  const key = await responseKey(context);
  return {
    form: { handshake, timestamp, sign, data },
    async openResponse(sealed) {
      const bytes = fromBase64Url(sealed);
      if (bytes.length < 12 + 16) throw new EnvelopeError('malformed', 'sealed response too short');
      try {
        const plain = await crypto.subtle.decrypt(
          { name: 'AES-GCM', iv: bytes.subarray(0, 12), additionalData: encoder.encode(handshake) },
          key,
          bytes.subarray(12),
        );
        return JSON.parse(decoder.decode(plain)) as unknown;
      } catch {
        throw new EnvelopeError('tampered', 'the response does not open with this request’s key');
      }
    },
  };
}

/** The server's side of one opened request: what it carried and how to seal its answer. */
export interface OpenedRequest {
  payload: EnvelopePayload;
  /** The encapsulated key: unique per request, the replay cache's key. */
  replayKey: string;
  /** Seals the response body (the JSON text of the envelope {code, msg, data}). */
  sealResponse(bodyText: string): Promise<string>;
}

/**
 * Opens a sealed request: the key id must be one of `keys` (the current one and those kept for a
 * rotation), the timestamp within ±`skewMs` of `now`, the sign and the ciphertext must verify against
 * this method and path. Replays are the caller's check (`replayKey` in a shared cache). Every refusal
 * is an EnvelopeError naming why; none says more than that.
 */
export async function openRequest(options: {
  keys: readonly EnvelopeKey[];
  form: Partial<Record<keyof SealedRequest, unknown>>;
  method: string;
  path: string;
  now?: number;
  skewMs?: number;
}): Promise<OpenedRequest> {
  const { handshake, timestamp, sign, data } = options.form;
  if (typeof handshake !== 'string' || typeof timestamp !== 'string' || typeof sign !== 'string' || typeof data !== 'string') {
    throw new EnvelopeError('malformed', 'handshake, timestamp, sign and data are required');
  }
  if (handshake.length > 200 || sign.length > 100 || !/^[0-9]{1,16}$/.test(timestamp)) throw new EnvelopeError('malformed', 'malformed envelope fields');
  const [version, kid, encText, ...rest] = handshake.split('.');
  if (version !== envelopeVersion || !kid || !encText || rest.length > 0) throw new EnvelopeError('malformed', 'malformed handshake');
  const key = options.keys.find((k) => k.kid === kid);
  if (!key) throw new EnvelopeError('unknown_key', `unknown key id ${kid}`);
  const skew = options.skewMs ?? envelopeSkewMs;
  if (Math.abs(Number(timestamp) - (options.now ?? Date.now())) > skew)
    throw new EnvelopeError('stale', 'the request’s timestamp is outside the allowed window');
  const enc = fromBase64Url(encText);
  const ciphertext = fromBase64Url(data);
  const signature = fromBase64Url(sign);
  if (enc.length !== 32) throw new EnvelopeError('malformed', 'malformed handshake');
  let context: RecipientContext;
  try {
    context = await suite.createRecipientContext({ recipientKey: key.keyPair, enc, info: encoder.encode(`nadi-envelope ${envelopeVersion} ${kid}`) });
  } catch {
    throw new EnvelopeError('tampered', 'the handshake does not open');
  }
  const signed = await crypto.subtle.verify('HMAC', await hmacKey(context), signature, signedText(options.method, options.path, timestamp, data));
  if (!signed) throw new EnvelopeError('tampered', 'the sign does not match this request');
  let payload: EnvelopePayload;
  try {
    const plain = await context.open(ciphertext, requestAad(options.method, options.path, timestamp, handshake));
    payload = JSON.parse(decoder.decode(plain)) as EnvelopePayload;
  } catch {
    throw new EnvelopeError('tampered', 'the data does not open');
  }
  if (typeof payload !== 'object' || payload === null) throw new EnvelopeError('malformed', 'the data is not a payload');
  const aesKey = await responseKey(context);
  return {
    payload,
    replayKey: encText,
    async sealResponse(bodyText) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(handshake) }, aesKey, encoder.encode(bodyText));
      const out = new Uint8Array(12 + sealed.byteLength);
      out.set(iv, 0);
      out.set(new Uint8Array(sealed), 12);
      return toBase64Url(out);
    },
  };
}
