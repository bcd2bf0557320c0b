import type { EnvelopeCaller } from './api-client.ts';

let envelopeRuntime: Promise<EnvelopeCaller | null> | null = null;

/**
 * The app's request envelope (docs/envelope.md): whether the server asks for it comes from the
 * config (read once, cached with the app's config query); only then is the sealing code loaded (a
 * chunk of its own, so the home route's budget does not carry HPKE). A failure to learn it is tried
 * again with the next call.
 */
export function appEnvelope(): Promise<EnvelopeCaller | null> {
  envelopeRuntime ??= (async () => {
    const { fetchAppConfig, getAppConfig } = await import('./app-config.ts');
    if (!(await fetchAppConfig()).encryption.enabled) return null;
    const { EnvelopeClient } = await import('@nadi/envelope/client');
    // After a key rotation the client reads the config again, past the cached query.
    return new EnvelopeClient({ loadConfig: async () => (await getAppConfig()).encryption });
  })().catch((error: unknown) => {
    envelopeRuntime = null;
    throw error;
  });
  return envelopeRuntime;
}
