// Activation by code and the operator's device API (docs/economy.md, "Devices"). A code binds its
// device once: the code's issued → used update decides between parallel requests, and the unique
// activation and miner keys back it up. Operators manage models, register devices and generate
// code batches (the codes are answered once, as CSV; only their hashes are kept).
import type { z } from 'zod';
import type { PageQuery } from '@nadi/api/common';
import type { ActivationItem, codeBatchBody, deviceModelBody, registerDevicesBody } from '@nadi/api/mining';
import { powerText } from '@nadi/economy/economy';
import { toDecimalString } from '@nadi/money/money';
import type { Db } from '../../db/client.ts';
import { pgCode } from '../../db/pg-code.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import type { SessionContext } from '../../lib/register-route.ts';
import { changePower, insertDeviceMiner } from '../mining/index.ts';
import { generateCode, hashCode, normalizeCode } from './codes.ts';
import { epochNow, normalizeSerial } from './heartbeat.ts';
import {
  bindDevice,
  codeStateOfDevice,
  codesOfDevices,
  findActivation,
  findCodeByHash,
  findCodeById,
  findDeviceBySerial,
  findDevicesTaking,
  findModelByCode,
  insertActivation,
  insertBatch,
  insertDevices,
  listActivations,
  listModels,
  lockDevicesBySerial,
  modelById,
  revokeIssuedCode,
  upsertModel,
  useCode,
  writeCodes,
  type ActivationCodeRow,
  type ActivationView,
  type DeviceModelRow,
  type ModelValues,
  type NewCode,
} from './repo.ts';

const uniqueViolation = '23505';
/** At most this many serials are named in a refusal's params. */
const namedSerialsMax = 20;

function toActivationItem(row: ActivationView): ActivationItem {
  return {
    id: row.id,
    status: row.status === 'success' ? 'success' : 'pending',
    serial: row.serial,
    model: row.model,
    created_at: row.createdAt.toISOString(),
    succeeded_at: row.succeededAt ? row.succeededAt.toISOString() : null,
  };
}

/** Why a code cannot bind (checked before the transaction, and again when its update matched nothing). */
function unusable(code: ActivationCodeRow, now: Date): AppError | null {
  if (code.state === 'used') return new AppError('ACTIVATION_CODE_USED');
  if (code.state === 'revoked') return new AppError('ACTIVATION_CODE_REVOKED');
  if (code.expiresAt && code.expiresAt.getTime() <= now.getTime()) return new AppError('ACTIVATION_CODE_EXPIRED');
  return null;
}

/**
 * Binds the code's device to the user: the code becomes used, the device gets its owner, the
 * activation (pending) and the device miner (status 4, the model's base and gift power) are
 * written in one transaction. A device that has already sent a valid heartbeat succeeds at once.
 */
export async function activate(deps: AppDeps, userId: number, input: string): Promise<ActivationItem> {
  const now = deps.now();
  const code = await findCodeByHash(deps.db, hashCode(normalizeCode(input)));
  if (!code) throw new AppError('ACTIVATION_CODE_UNKNOWN');
  const refusal = unusable(code, now);
  if (refusal) throw refusal;
  const { epoch } = await epochNow(deps, now);
  let activationId: number;
  try {
    activationId = await deps.db.transaction(async (tx) => {
      const used = await useCode(tx, code.id, userId, now);
      if (!used) {
        const current = await findCodeById(tx, code.id);
        throw (current && unusable(current, now)) ?? new AppError('ACTIVATION_CODE_USED');
      }
      const device = await bindDevice(tx, used.deviceId, userId, now);
      if (!device) throw new AppError('ACTIVATION_CODE_USED');
      const model = await modelById(tx, device.modelId);
      const isSeen = device.firstSeenAt !== null;
      const id = await insertActivation(tx, { userId, deviceId: used.deviceId, codeId: code.id, isSuccess: isSeen }, now);
      const minerId = await insertDeviceMiner(
        tx,
        { userId, deviceId: used.deviceId, basePower: model.basePower, giftPower: model.giftPower, status: isSeen ? 3 : 4, startsEpoch: epoch },
        now,
      );
      if (isSeen) await changePower(tx, { userId, type: 'activate', delta: model.basePower + model.giftPower, minerId, epoch, now });
      return id;
    });
  } catch (error) {
    if (pgCode(error) === uniqueViolation) throw new AppError('ACTIVATION_CODE_USED', undefined, { cause: error });
    throw error;
  }
  const row = await findActivation(deps.db, activationId);
  if (!row) throw new Error(`activation ${activationId} vanished`);
  return toActivationItem(row);
}

export async function userActivations(db: Db, userId: number, query: PageQuery) {
  const { rows, total } = await listActivations(db, userId, (query.page - 1) * query.page_size, query.page_size);
  return { list: rows.map(toActivationItem), total, page: query.page, page_size: query.page_size };
}

// ─── Operators ───────────────────────────────────────────────────────────────────────────────

function toModelItem(row: DeviceModelRow) {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    base_power: powerText(row.basePower),
    gift_power: powerText(row.giftPower),
    // A decimal string like every amount in an answer (the store's products too), not base units.
    price_usdt: toDecimalString(row.priceUsdt),
  };
}

/** "100" or "12.5" P → centi-power. */
export function parsePower(text: string): bigint {
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0') || '0');
}

export async function operatorModels(deps: AppDeps) {
  return (await listModels(deps.db)).map(toModelItem);
}

export async function saveModel(deps: AppDeps, session: SessionContext, input: z.output<typeof deviceModelBody>) {
  const model: ModelValues = {
    code: input.code,
    name: input.name,
    basePower: parsePower(input.base_power),
    giftPower: parsePower(input.gift_power),
    priceUsdt: input.price_usdt,
  };
  if (model.basePower <= 0n) throw new AppError('BAD_REQUEST', 'base_power must be above 0');
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const before = await findModelByCode(tx, model.code);
    const saved = await upsertModel(tx, model, now);
    await recordAudit(tx, { actorId: session.userId, action: 'device.model', targetType: 'device_model', targetId: saved.id, before, after: saved, at: now });
    return toModelItem(saved);
  });
}

/** The values that occur more than once. */
function duplicates(values: string[]): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) repeated.add(value);
    seen.add(value);
  }
  return [...repeated];
}

function serialsParam(serials: string[]): { serials: string } {
  const named = serials.slice(0, namedSerialsMax).join(', ');
  return { serials: serials.length > namedSerialsMax ? `${named}, …` : named };
}

/**
 * Registers devices of one model, all or none. A serial or key already taken refuses the whole
 * request (DEVICE_EXISTS), except the very same device again (same serial, key and model): that one
 * is skipped, so a retried registration succeeds. Answers how many were new.
 */
export async function registerDevices(deps: AppDeps, session: SessionContext, input: z.output<typeof registerDevicesBody>) {
  const model = await findModelByCode(deps.db, input.model_code);
  if (!model) throw new AppError('DEVICE_MODEL_UNKNOWN');
  const wanted = input.devices.map((d) => ({ serial: normalizeSerial(d.serial), publicKey: d.public_key.toLowerCase(), modelId: model.id }));
  const repeated = [...duplicates(wanted.map((d) => d.serial)), ...duplicates(wanted.map((d) => d.publicKey))];
  if (repeated.length > 0) throw new AppError('BAD_REQUEST', `repeated in the request: ${repeated.join(', ')}`);
  const now = deps.now();
  try {
    return await deps.db.transaction(async (tx) => {
      const taken = await findDevicesTaking(
        tx,
        wanted.map((d) => d.serial),
        wanted.map((d) => d.publicKey),
      );
      const isSame = (d: (typeof wanted)[number]) => taken.some((t) => t.serial === d.serial && t.publicKey === d.publicKey && t.modelId === d.modelId);
      const conflicts = wanted.filter((d) => !isSame(d) && taken.some((t) => t.serial === d.serial || t.publicKey === d.publicKey));
      if (conflicts.length > 0) throw new AppError('DEVICE_EXISTS', undefined, { params: serialsParam(conflicts.map((d) => d.serial)) });
      const fresh = wanted.filter((d) => !isSame(d));
      const registered = await insertDevices(tx, fresh, now);
      await recordAudit(tx, {
        actorId: session.userId,
        action: 'device.register',
        targetType: 'device_model',
        targetId: model.id,
        after: { model_code: input.model_code, registered, serials: fresh.map((d) => d.serial) },
        at: now,
      });
      return { registered };
    });
  } catch (error) {
    // Another registration of the same serial or key committed first.
    if (pgCode(error) === uniqueViolation) throw new AppError('DEVICE_EXISTS', undefined, { cause: error });
    throw error;
  }
}

/**
 * One fresh code per device, all or none: unknown serials (DEVICE_UNKNOWN) or devices that already
 * have an issued or used code (ACTIVATION_CODE_EXISTS) refuse the whole batch and name the serials.
 * A device whose code was revoked gets a new one in place of it. The CSV is the only place the
 * codes ever appear.
 */
export async function generateCodeBatch(deps: AppDeps, session: SessionContext, input: z.output<typeof codeBatchBody>) {
  const serials = input.serials.map(normalizeSerial);
  const repeated = duplicates(serials);
  if (repeated.length > 0) throw new AppError('BAD_REQUEST', `repeated in the request: ${repeated.join(', ')}`);
  const now = deps.now();
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) throw new AppError('BAD_REQUEST', 'expires_at is not in the future');
  const lines: string[] = [];
  const batchId = await deps.db.transaction(async (tx) => {
    const found = await lockDevicesBySerial(tx, serials);
    const idBySerial = new Map(found.map((d) => [d.serial, d.id]));
    const unknown = serials.filter((s) => !idBySerial.has(s));
    if (unknown.length > 0) throw new AppError('DEVICE_UNKNOWN', undefined, { params: serialsParam(unknown) });
    const existing = new Map((await codesOfDevices(tx, [...idBySerial.values()])).map((c) => [c.deviceId, c]));
    const holding = serials.filter((s) => {
      const state = existing.get(idBySerial.get(s) as number)?.state;
      return state === 'issued' || state === 'used';
    });
    if (holding.length > 0) throw new AppError('ACTIVATION_CODE_EXISTS', undefined, { params: serialsParam(holding) });
    const id = await insertBatch(tx, { count: serials.length, createdBy: session.userId, expiresAt }, now);
    const codes: NewCode[] = serials.map((serial) => {
      const deviceId = idBySerial.get(serial) as number;
      const code = generateCode();
      lines.push(`${serial},${code}`);
      return { deviceId, codeHash: hashCode(code), replacesId: existing.get(deviceId)?.id ?? null };
    });
    await writeCodes(tx, id, codes, expiresAt, now);
    // The codes themselves never reach the trail: only which devices got one.
    await recordAudit(tx, {
      actorId: session.userId,
      action: 'activation.batch',
      targetType: 'activation_batch',
      targetId: id,
      after: { count: serials.length, serials, expires_at: expiresAt, replaced: codes.filter((c) => c.replacesId !== null).length },
      at: now,
    });
    return id;
  });
  return { batch_id: batchId, count: lines.length, csv: `serial,code\n${lines.join('\n')}\n` };
}

/** Revokes a device's unused code. Already revoked: nothing changes (revoked false). Used: refused. */
export async function revokeCode(deps: AppDeps, session: SessionContext, serial: string) {
  const device = await findDeviceBySerial(deps.db, normalizeSerial(serial));
  if (!device) throw new AppError('DEVICE_UNKNOWN');
  const now = deps.now();
  const isRevoked = await deps.db.transaction(async (tx) => {
    if (!(await revokeIssuedCode(tx, device.id))) return false;
    await recordAudit(tx, {
      actorId: session.userId,
      action: 'activation.revoke',
      targetType: 'device',
      targetId: device.id,
      before: { serial: device.serial, code: 'issued' },
      after: { serial: device.serial, code: 'revoked' },
      at: now,
    });
    return true;
  });
  if (isRevoked) return { revoked: true };
  const state = await codeStateOfDevice(deps.db, device.id);
  if (state === null) throw new AppError('NOT_FOUND', `device ${device.serial} has no code`);
  if (state === 'used') throw new AppError('ACTIVATION_CODE_USED');
  return { revoked: false };
}
