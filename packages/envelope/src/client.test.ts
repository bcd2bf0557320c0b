import { describe, expect, it } from 'vitest';
import { EnvelopeClient } from './client.ts';
import { deferredSocket, type SocketLike } from './deferred-socket.ts';
import { envelopeKeyFromSeed, newEnvelopeSeed, openRequest, type EnvelopeKey } from './envelope.ts';

const serverNow = Date.parse('2026-11-26T12:00:00Z');

/** A server in a function: opens the form with its keys and clock, answers sealed, counts what ran. */
function fakeServer(keys: EnvelopeKey[], clock = () => serverNow) {
  const ran: unknown[] = [];
  const fetchImpl = async (path: string, init: RequestInit) => {
    const form = Object.fromEntries(new URLSearchParams(String(init.body)));
    const headers = { date: new Date(clock()).toUTCString() };
    try {
      const opened = await openRequest({ keys, form, method: 'POST', path, now: clock() });
      ran.push(opened.payload);
      const sealed = await opened.sealResponse(JSON.stringify({ code: 200, msg: 'ok', data: { echo: opened.payload.input } }));
      return new Response(JSON.stringify({ sealed }), { status: 200, headers });
    } catch (error) {
      const failure = (error as { failure?: string }).failure;
      const reason = failure === 'unknown_key' ? 'ENVELOPE_KEY_UNKNOWN' : failure === 'stale' ? 'ENVELOPE_STALE' : 'ENVELOPE_INVALID';
      return new Response(JSON.stringify({ code: 400, msg: reason, reason }), { status: 400, headers });
    }
  };
  return { ran, fetchImpl };
}

const config = (keys: EnvelopeKey[], enabled = true) => ({ enabled, keys: keys.map((k) => ({ kid: k.kid, public_key: k.publicKey })) });

describe('the envelope client', () => {
  it('seals a call, opens its answer and keeps the token inside', async () => {
    const key = await envelopeKeyFromSeed('k1', newEnvelopeSeed());
    const server = fakeServer([key]);
    const client = new EnvelopeClient({ loadConfig: async () => config([key]), now: () => serverNow });
    const target = await client.current();
    expect(target).toEqual({ kid: 'k1', publicKey: key.publicKey });
    const answer = await client.call(
      target!,
      { method: 'POST', path: '/api/v1/x', input: { amount: '1' }, token: 't0k', idempotencyKey: 'i1' },
      server.fetchImpl,
    );
    expect(answer).toEqual({ status: 200, body: { code: 200, msg: 'ok', data: { echo: { amount: '1' } } } });
    expect(server.ran).toEqual([{ input: { amount: '1' }, token: 't0k', idempotencyKey: 'i1' }]);
  });

  it('answers null when the server does not ask for encryption, and reads the config again after a failure', async () => {
    let calls = 0;
    const client = new EnvelopeClient({
      loadConfig: async () => {
        calls += 1;
        if (calls === 1) throw new Error('offline');
        return config([], false);
      },
    });
    await expect(client.current()).rejects.toThrow('offline');
    expect(await client.current()).toBeNull();
    expect(calls).toBe(2);
  });

  it('retries once after a key rotation and once after a clock far off, and never more', async () => {
    const old = await envelopeKeyFromSeed('k1', newEnvelopeSeed());
    const rotated = await envelopeKeyFromSeed('k2', newEnvelopeSeed());
    const server = fakeServer([rotated]);
    let published = [old];
    const client = new EnvelopeClient({ loadConfig: async () => config(published), now: () => serverNow });
    const stale = await client.current();
    published = [rotated, old];
    const answer = await client.call(stale!, { method: 'POST', path: '/p', input: {} }, server.fetchImpl);
    expect(answer.status).toBe(200);
    expect(server.ran).toHaveLength(1);

    // The phone's clock is 5 minutes behind: the server's Date header corrects it.
    const late = new EnvelopeClient({ loadConfig: async () => config([rotated]), now: () => serverNow - 300_000 });
    const lateAnswer = await late.call((await late.current())!, { method: 'POST', path: '/p', input: {} }, server.fetchImpl);
    expect(lateAnswer.status).toBe(200);
    expect(Math.abs(late.now() - serverNow)).toBeLessThan(1_000);

    // A key the server never knows: one retry, then the refusal is the answer.
    const unknown = await envelopeKeyFromSeed('k9', newEnvelopeSeed());
    const lost = new EnvelopeClient({ loadConfig: async () => config([unknown]), now: () => serverNow });
    let posts = 0;
    const counting = async (path: string, init: RequestInit) => {
      posts += 1;
      return server.fetchImpl(path, init);
    };
    const refused = await lost.call((await lost.current())!, { method: 'POST', path: '/p', input: {} }, counting);
    expect(refused).toMatchObject({ status: 400, body: { reason: 'ENVELOPE_KEY_UNKNOWN' } });
    expect(posts).toBe(2);
  });

  it('seals a socket token into the upgrade URL and leaves a URL without a token alone', async () => {
    const key = await envelopeKeyFromSeed('k1', newEnvelopeSeed());
    const client = new EnvelopeClient({ loadConfig: async () => config([key]), now: () => serverNow });
    const url = new URL(await client.socketUrl('ws://h/ws?token=abc&lang=EN'));
    expect(url.searchParams.get('token')).toBeNull();
    expect(url.searchParams.get('lang')).toBe('EN');
    const opened = await openRequest({ keys: [key], form: Object.fromEntries(url.searchParams), method: 'GET', path: '/ws', now: serverNow });
    expect(opened.payload.token).toBe('abc');
    expect(await client.socketUrl('ws://h/ws/trade')).toBe('ws://h/ws/trade');
  });
});

function fakeSocket(): SocketLike & { sent: string[]; closedWith: number | null } {
  return {
    sent: [],
    closedWith: null,
    onopen: null,
    onmessage: null,
    onclose: null,
    onerror: null,
    send(data) {
      this.sent.push(data);
    },
    close(code) {
      this.closedWith = code ?? 1000;
    },
  };
}

describe('a deferred socket', () => {
  it('opens the real socket when its URL is ready and forwards both ways', async () => {
    const real = fakeSocket();
    const created: string[] = [];
    const proxy = deferredSocket(Promise.resolve('ws://sealed'), (url) => {
      created.push(url);
      return real;
    });
    const events: string[] = [];
    proxy.onopen = () => events.push('open');
    proxy.onmessage = (e) => events.push(String(e.data));
    await Promise.resolve();
    expect(created).toEqual(['ws://sealed']);
    real.onopen?.({});
    real.onmessage?.({ data: 'ping' });
    proxy.send('pong');
    proxy.close(1000);
    expect(events).toEqual(['open', 'ping']);
    expect(real.sent).toEqual(['pong']);
    expect(real.closedWith).toBe(1000);
  });

  it('closed before its URL is ready, never opens; a URL that fails reports a close for a reconnect', async () => {
    let created = 0;
    const early = deferredSocket(Promise.resolve('ws://x'), () => {
      created += 1;
      return fakeSocket();
    });
    const closes: number[] = [];
    early.onclose = (e) => closes.push(e.code);
    early.close(1000);
    await new Promise((r) => setTimeout(r, 0));
    expect(created).toBe(0);
    expect(closes).toEqual([1000]);

    const failing = deferredSocket(Promise.reject(new Error('no config')), () => fakeSocket());
    const failed: number[] = [];
    failing.onclose = (e) => failed.push(e.code);
    await new Promise((r) => setTimeout(r, 0));
    expect(failed).toEqual([1006]);
  });
});
