import { operatorRoutes } from '@nadi/api/operator';
import { EnvelopeClient } from '@nadi/envelope/client';
import { envelopeKeyFromSeed, newEnvelopeSeed, openRequest } from '@nadi/envelope/envelope';
import { describe, expect, it } from 'vitest';
import { ApiError, callRoute, type Fetch } from './api.ts';

// With the request envelope on (docs/envelope.md) the console seals its calls as the phone app does.
describe('the console calls with the envelope on', () => {
  it('seals the query and the token, opens the answer, and shows a sealed refusal with its reason', async () => {
    const key = await envelopeKeyFromSeed('k1', newEnvelopeSeed());
    const envelope = new EnvelopeClient({ loadConfig: async () => ({ enabled: true, keys: [{ kid: 'k1', public_key: key.publicKey }] }) });
    const seen: unknown[] = [];
    let refuse = false;
    const fetchImpl: Fetch = async (url, init) => {
      expect(init.method).toBe('POST');
      expect(String(init.body)).not.toContain('secret-token');
      const opened = await openRequest({ keys: [key], form: Object.fromEntries(new URLSearchParams(String(init.body))), method: 'GET', path: url });
      seen.push(opened.payload);
      const body = refuse ? { code: 403, msg: 'You do not have permission', reason: 'FORBIDDEN' } : { code: 200, msg: 'ok', data: { list: [], total: 0 } };
      return new Response(JSON.stringify({ sealed: await opened.sealResponse(JSON.stringify(body)) }), { status: refuse ? 403 : 200 });
    };
    const data = await callRoute(operatorRoutes.approvals, { status: 'pending', page: 1, page_size: 10 }, { token: 'secret-token', fetchImpl, envelope });
    expect(data).toEqual({ list: [], total: 0 });
    expect(seen[0]).toEqual({ input: { status: 'pending', page: '1', page_size: '10' }, token: 'secret-token' });
    refuse = true;
    const error = await callRoute(operatorRoutes.approvals, {}, { token: 'secret-token', fetchImpl, envelope }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403, reason: 'FORBIDDEN', message: 'You do not have permission' });
  });
});
