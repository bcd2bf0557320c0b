import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { privateKeyToAccount } from 'viem/accounts';
import { hardhatDevPrivateKeys } from '@nadi/chain/demo-accounts';
import type { FetchLike } from '@nadi/device-agent/client';
import { newDeviceKey, signHeartbeat, type DeviceKey, type HeartbeatFields } from '@nadi/device-agent/keys';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import type { TestClock } from './harness.ts';
import { signIn } from './sign-in.ts';

/** In development (and tests) the operator is the local chain's account #0, which is also the root user. */
export const operatorAccount = privateKeyToAccount(hardhatDevPrivateKeys[0]);

export function operatorToken(app: FastifyInstance): Promise<string> {
  return signIn(app, operatorAccount);
}

/** `fetch` for the device agent that goes through Fastify's inject, with the host a browser would send. */
export function injectFetch(app: FastifyInstance): FetchLike {
  return async (url, init) => {
    const target = new URL(url);
    const res = await app.inject({
      method: init.method,
      url: `${target.pathname}${target.search}`,
      headers: { ...init.headers, host: 'localhost:8080' },
      ...(init.body !== undefined ? { payload: init.body } : {}),
    });
    return { status: res.statusCode, json: async () => res.json() as unknown };
  };
}

export function post(app: FastifyInstance, token: string | null, url: string, payload: unknown) {
  return app.inject({ method: 'POST', url, payload: payload as object, headers: { lang: 'EN', ...(token ? { authorization: token } : {}) } });
}

export function get(app: FastifyInstance, token: string | null, url: string) {
  return app.inject({ method: 'GET', url, headers: { lang: 'EN', ...(token ? { authorization: token } : {}) } });
}

/** Registers fresh devices of the seeded model through the operator API. */
export async function registerDevices(app: FastifyInstance, operator: string, count: number, prefix = 'T'): Promise<DeviceKey[]> {
  const keys = Array.from({ length: count }, () => newDeviceKey(prefix));
  const res = await post(app, operator, '/api/v1/operator/device/register', {
    model_code: 'NADI-BOX-1',
    devices: keys.map((k) => ({ serial: k.serial, public_key: k.publicKey })),
  });
  if (res.statusCode !== 200) throw new Error(`register failed: ${res.body}`);
  return keys;
}

/** Issues one code per serial; answers serial → code from the CSV. */
export async function issueCodes(app: FastifyInstance, operator: string, serials: string[], expiresAt?: Date): Promise<Map<string, string>> {
  const res = await post(app, operator, '/api/v1/operator/activation/batch', { serials, ...(expiresAt ? { expires_at: expiresAt.toISOString() } : {}) });
  if (res.statusCode !== 200) throw new Error(`code batch failed: ${res.body}`);
  const csv: string = res.json().data.csv;
  return new Map(
    csv
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',') as [string, string]),
  );
}

/** The server's current epoch (the genesis is fixed on the first read). */
export async function currentEpoch(app: FastifyInstance): Promise<number> {
  return (await get(app, null, '/api/v1/device/clock')).json().data.epoch;
}

/**
 * A heartbeat of `key` at the clock's time and the server's epoch, counter `counter`; `change`
 * alters fields after signing (a tampered heartbeat), `sign` signs other fields than those sent.
 */
export async function heartbeat(
  app: FastifyInstance,
  clock: TestClock,
  key: DeviceKey,
  counter: number,
  options: { fields?: Partial<HeartbeatFields>; change?: Partial<HeartbeatFields>; signer?: DeviceKey } = {},
) {
  const fields: HeartbeatFields = {
    serial: key.serial,
    epoch: await currentEpoch(app),
    counter,
    timestamp: Math.floor(clock.now().getTime() / 1000),
    ...options.fields,
  };
  const signature = signHeartbeat(options.signer ?? key, fields);
  return post(app, null, '/api/v1/device/heartbeat', { ...fields, ...options.change, signature });
}

/** Every row of the device and power tables, in a fixed order: "nothing changed" means this text is identical. */
export async function deviceTables(db: Db): Promise<string> {
  const tables = [
    'devices',
    'device_models',
    'device_uptime',
    'activation_code_batches',
    'activation_codes',
    'activations',
    'miners',
    'user_power',
    'power_log',
  ];
  const parts: string[] = [];
  for (const table of tables) {
    const rows = rowsOf<Record<string, unknown>>(await db.execute(sql.raw(`select * from ${table} order by 1, 2`)));
    parts.push(`${table}:${JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`);
  }
  return parts.join('\n');
}
