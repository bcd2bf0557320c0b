import { describe, expect, it } from 'vitest';
import { EnvelopeError, envelopeKeyFromSeed, fromBase64Url, newEnvelopeSeed, openRequest, sealRequest, toBase64Url, type SealedRequest } from './envelope.ts';

const now = 1_790_000_000_000;
const key = await envelopeKeyFromSeed('k1', newEnvelopeSeed());
const older = await envelopeKeyFromSeed('k0', newEnvelopeSeed());
const request = {
  method: 'POST',
  path: '/api/v1/wallet/transfer',
  payload: { input: { amount: '1.5', to: 'x' }, token: 'secret-token', idempotencyKey: 'abc' },
};

async function sealed(overrides: Partial<Parameters<typeof sealRequest>[0]> = {}) {
  return sealRequest({ kid: key.kid, publicKey: key.publicKey, ...request, now, ...overrides });
}

async function failureOf(form: Partial<SealedRequest>, options: { method?: string; path?: string; at?: number; keys?: (typeof key)[] } = {}) {
  try {
    await openRequest({
      keys: options.keys ?? [key],
      form,
      method: options.method ?? request.method,
      path: options.path ?? request.path,
      now: options.at ?? now,
    });
    return 'opened';
  } catch (error) {
    if (error instanceof EnvelopeError) return error.failure;
    throw error;
  }
}

/** Flips one bit of a base64url field's bytes. */
function flipped(field: string, at = 0): string {
  const bytes = fromBase64Url(field);
  bytes[at] = (bytes[at] ?? 0) ^ 1;
  return toBase64Url(bytes);
}

describe('the request envelope', () => {
  it('opens what the client sealed, and only that client opens the answer', async () => {
    const client = await sealed();
    expect(client.form.handshake).toMatch(/^v1\.k1\.[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(client.form)).not.toContain('secret-token');
    const opened = await openRequest({ keys: [older, key], form: client.form, method: 'POST', path: request.path, now: now + 59_000 });
    expect(opened.payload).toEqual(request.payload);
    const answer = { code: 200, msg: 'ok', data: { balance: '10.000000000000000001' } };
    const sealedAnswer = await opened.sealResponse(JSON.stringify(answer));
    expect(await client.openResponse(sealedAnswer)).toEqual(answer);
    // Another request's context cannot open it.
    const other = await sealed();
    await expect(other.openResponse(sealedAnswer)).rejects.toMatchObject({ failure: 'tampered' });
  });

  it('gives every request its own encapsulated key (the replay cache key) and ciphertext', async () => {
    const [a, b] = await Promise.all([sealed(), sealed()]);
    expect(a.form.handshake).not.toBe(b.form.handshake);
    expect(a.form.data).not.toBe(b.form.data);
    const opened = await openRequest({ keys: [key], form: a.form, method: 'POST', path: request.path, now });
    expect(opened.replayKey).toBe(a.form.handshake.split('.')[2]);
  });

  it('refuses a changed ciphertext, sign, timestamp, handshake, method or path as tampered', async () => {
    const { form } = await sealed();
    expect(await failureOf({ ...form, data: flipped(form.data, 3) })).toBe('tampered');
    expect(await failureOf({ ...form, sign: flipped(form.sign) })).toBe('tampered');
    expect(await failureOf({ ...form, timestamp: String(now + 1) })).toBe('tampered');
    expect(await failureOf({ ...form, handshake: `v1.k1.${flipped(form.handshake.split('.')[2] ?? '')}` })).toBe('tampered');
    expect(await failureOf(form, { method: 'PUT' })).toBe('tampered');
    expect(await failureOf(form, { path: '/api/v1/wallet/withdraw' })).toBe('tampered');
  });

  it('refuses a request outside ±60 s, an unknown or retired key id, and malformed fields', async () => {
    const { form } = await sealed();
    expect(await failureOf(form, { at: now + 60_001 })).toBe('stale');
    expect(await failureOf(form, { at: now - 60_001 })).toBe('stale');
    expect(await failureOf(form, { at: now + 60_000 })).toBe('opened');
    expect(await failureOf(form, { keys: [older] })).toBe('unknown_key');
    const { form: toOld } = await sealRequest({ kid: 'k0', publicKey: key.publicKey, ...request, now });
    expect(await failureOf(toOld, { keys: [older, key] })).toBe('tampered');
    expect(await failureOf({ ...form, handshake: undefined })).toBe('malformed');
    expect(await failureOf({ ...form, handshake: 'v2.k1.abc' })).toBe('malformed');
    expect(await failureOf({ ...form, timestamp: '12e5' })).toBe('malformed');
    expect(await failureOf({ ...form, data: 'not base64!' })).toBe('malformed');
    expect(await failureOf({ ...form, handshake: 'v1.k1.AAAA' })).toBe('malformed');
  });

  it('derives the same key from the same seed and refuses short seeds and bad key ids', async () => {
    const seed = newEnvelopeSeed();
    expect((await envelopeKeyFromSeed('a', seed)).publicKey).toBe((await envelopeKeyFromSeed('a', seed)).publicKey);
    await expect(envelopeKeyFromSeed('a', toBase64Url(new Uint8Array(16)))).rejects.toThrow(/32 bytes/);
    await expect(envelopeKeyFromSeed('a.b', seed)).rejects.toThrow(/key id/);
  });
});
