import type { AppConfig } from '@nadi/api/config';
import type { Route } from '@nadi/api/route';
import type { EnvelopeClient } from '@nadi/envelope/client';
import { queryOf, type EnvelopeCaller } from './api-client.ts';

let envelopeRuntime: Promise<EnvelopeCaller | null> | null = null;

/** The api-client's view of an envelope client: a sealed call (GET queries as their strings), a sealed socket URL. */
export function envelopeCaller(client: EnvelopeClient): EnvelopeCaller {
  return {
    async send({ route, input, token, idempotencyKey, lang, signal }, fetchImpl) {
      const target = await client.current();
      if (!target) return null;
      return client.call(
        target,
        {
          method: route.method,
          path: route.path,
          input: route.method === 'GET' ? queryOf(route as Route, input) : (input ?? {}),
          token,
          ...(idempotencyKey ? { idempotencyKey } : {}),
          headers: { lang, accept: 'application/json' },
          signal,
        },
        fetchImpl,
      );
    },
    socketUrl: (plainUrl) => client.socketUrl(plainUrl),
  };
}

/**
 * The app's request envelope (docs/envelope.md): whether the server asks for it comes from the
 * config (read once, cached with the app's config query); the sealing code is a chunk of its own
 * (the home route's budget does not carry HPKE), fetched with the config. A failure to learn it is tried
 * again with the next call.
 */
export function appEnvelope(): Promise<EnvelopeCaller | null> {
  envelopeRuntime ??= (async () => {
    // The sealing code downloads beside the config rather than after it (issue 33: every call of
    // the first screen waits for this); when the server does not seal, it is 7 KB read for nothing.
    const sealing = import('@nadi/envelope/client');
    sealing.catch(() => undefined);
    const { fetchAppConfig, getAppConfig } = await import('./app-config.ts');
    let known: AppConfig['encryption'] | null = (await fetchAppConfig()).encryption;
    if (!known.enabled) return null;
    const { EnvelopeClient } = await sealing;
    // The first key is the one just read (no second request on the way to the first screen); after
    // a key rotation the client reads the config again, past the cached query.
    const loadConfig = async () => {
      const config = known ?? (await getAppConfig()).encryption;
      known = null;
      return config;
    };
    return envelopeCaller(new EnvelopeClient({ loadConfig }));
  })().catch((error: unknown) => {
    envelopeRuntime = null;
    throw error;
  });
  return envelopeRuntime;
}
