// Apart from http.ts, which the phone's first screen loads: only the envelope's users need this list.
/**
 * Paths a plain request may reach when the request envelope is on (docs/envelope.md): the config,
 * where the client learns the key, the devices' routes (a device signs its heartbeat itself), and the
 * public download of a proof tree's leaves (docs/transparency.md: any verifier fetches it as it is).
 */
export const envelopePlainPaths: readonly string[] = [
  '/api/v1/common/config',
  '/api/v1/device/clock',
  '/api/v1/device/heartbeat',
  '/api/v1/transparency/tree.bin',
];
