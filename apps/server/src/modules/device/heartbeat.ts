// Device heartbeats (docs/economy.md, "Heartbeats and uptime"): a device proves it is online with a
// message signed by its Ed25519 key. Checked in this order, each refusal changing nothing: the
// serial is known, the signature holds, the timestamp is within the skew and the epoch is the
// current one, the counter is above the last one (one conditional update, so a replay sent twice
// at once still counts once). Then, in the same transaction: the uptime row of the epoch, and on a
// bound device's first valid beat its activation's success and its miner's power.
import { createPublicKey, verify } from 'node:crypto';
import { heartbeatMessage, type DeviceClockData, type HeartbeatBody } from '@nadi/api/mining';
import { uptimeBps, type MiningParams } from '@nadi/economy/economy';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/app-error.ts';
import { changePower, epochClock, miningGenesis, paramsAt, startDeviceMiner } from '../mining/index.ts';
import { activationStatusOfDevice, advanceCounter, countBeat, findDeviceBySerial, succeedActivation } from './repo.ts';
import type { Tx } from '../../db/client.ts';

/** Serials are case-insensitive: stored and looked up upper-case (the signature covers the serial as sent). */
export function normalizeSerial(serial: string): string {
  return serial.toUpperCase();
}

/** The genesis never changes once fixed: read once per database. */
const genesisOf = new WeakMap<AppDeps['db'], Date>();

/** The epoch `now` falls in and the parameters in force then (the genesis is fixed at first use). */
export async function epochNow(deps: AppDeps, now: Date): Promise<{ genesis: Date; epoch: number; params: MiningParams }> {
  let genesis = genesisOf.get(deps.db);
  if (!genesis) {
    genesis = await miningGenesis(deps.db, now, deps.settings.epochSeconds);
    genesisOf.set(deps.db, genesis);
  }
  const epoch = epochClock(genesis, { epochSeconds: deps.settings.epochSeconds }).epochOf(now);
  return { genesis, epoch, params: await paramsAt(deps.db, deps.settings, epoch) };
}

export async function deviceClock(deps: AppDeps): Promise<DeviceClockData> {
  const now = deps.now();
  const { genesis, epoch, params } = await epochNow(deps, now);
  return {
    now: Math.floor(now.getTime() / 1000),
    genesis: Math.floor(genesis.getTime() / 1000),
    epoch,
    epoch_seconds: params.epochSeconds,
    heartbeat_seconds: params.heartbeatSeconds,
    skew_seconds: params.heartbeatSkewSeconds,
  };
}

/** Ed25519 over the UTF-8 heartbeat message; a malformed key or signature is simply invalid. */
export function isHeartbeatSigned(publicKeyHex: string, body: HeartbeatBody): boolean {
  try {
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKeyHex, 'hex').toString('base64url') }, format: 'jwk' });
    return verify(null, Buffer.from(heartbeatMessage(body), 'utf8'), key, Buffer.from(body.signature, 'hex'));
  } catch {
    return false;
  }
}

export async function acceptHeartbeat(deps: AppDeps, body: HeartbeatBody) {
  const now = deps.now();
  const { genesis, epoch, params } = await epochNow(deps, now);
  const device = await findDeviceBySerial(deps.db, normalizeSerial(body.serial));
  if (!device) throw new AppError('DEVICE_UNKNOWN');
  if (!isHeartbeatSigned(device.publicKey, body)) throw new AppError('HEARTBEAT_SIGNATURE_INVALID');
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (Math.abs(body.timestamp - nowSeconds) > params.heartbeatSkewSeconds || body.epoch !== epoch)
    // The server's epoch and time go back with the refusal, so a device can set itself right.
    throw new AppError('HEARTBEAT_STALE', `timestamp ${body.timestamp} epoch ${body.epoch}`, { params: { epoch: String(epoch), now: String(nowSeconds) } });
  return deps.db.transaction(async (tx) => {
    if (!(await advanceCounter(tx, device.id, body.counter, now))) throw new AppError('HEARTBEAT_REPLAY');
    // One counted beat per heartbeat interval of the epoch (its slot): a chatty device earns no more.
    const epochStartMs = genesis.getTime() + epoch * params.epochSeconds * 1000;
    const intervalMs = params.heartbeatSeconds * 1000;
    const slotStart = new Date(epochStartMs + Math.floor((now.getTime() - epochStartMs) / intervalMs) * intervalMs);
    const beats = await countBeat(tx, device.id, epoch, now, slotStart);
    const activated = await completeActivation(tx, device.id, epoch, now);
    return { epoch, beats, uptime_bps: uptimeBps(beats, params), activated };
  });
}

/**
 * A bound device reporting: its pending activation succeeds and its miner starts (4 → 3) with the
 * model's base + gift power in the owner's power log ('activate'). Runs on every beat (a single
 * indexed read once done), so an activation committed while a beat was in flight is completed by
 * the next beat. Answers whether the device's activation has succeeded.
 */
async function completeActivation(tx: Tx, deviceId: number, epoch: number, now: Date): Promise<boolean> {
  const status = await activationStatusOfDevice(tx, deviceId);
  if (status !== 'pending') return status === 'success';
  if (!(await succeedActivation(tx, deviceId, now))) return (await activationStatusOfDevice(tx, deviceId)) === 'success';
  const miner = await startDeviceMiner(tx, deviceId);
  if (miner) await changePower(tx, { userId: miner.userId, type: 'activate', delta: miner.power, minerId: miner.id, epoch, now });
  return true;
}
