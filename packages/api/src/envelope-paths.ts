// Apart from http.ts, which the phone's first screen loads: only the envelope's users need this list.
/**
 * Paths a plain request may reach when the request envelope is on (docs/envelope.md): the config,
 * where the client learns the key, and the devices' routes (a device signs its heartbeat itself).
 */
export const envelopePlainPaths: readonly string[] = ['/api/v1/common/config', '/api/v1/device/clock', '/api/v1/device/heartbeat'];
