// Devices, models, activation codes and activations in SQL (docs/economy.md, "Devices"). The writes
// that decide a race are conditional updates: a heartbeat's counter, a code's issued → used, a
// device's binding, an activation's pending → success.
import { and, asc, count, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { activationCodeBatches, activationCodes, activations, deviceModels, devices } from './schema.ts';
import { sqlList } from '../../db/sql-list.ts';

export type DeviceRow = typeof devices.$inferSelect;
export type DeviceModelRow = typeof deviceModels.$inferSelect;
export type ActivationCodeRow = typeof activationCodes.$inferSelect;

// ─── Models ──────────────────────────────────────────────────────────────────────────────────

export async function listModels(db: Db | Tx): Promise<DeviceModelRow[]> {
  return db.select().from(deviceModels).orderBy(asc(deviceModels.id));
}

export async function findModelByCode(db: Db | Tx, code: string): Promise<DeviceModelRow | null> {
  const rows = await db.select().from(deviceModels).where(eq(deviceModels.code, code)).limit(1);
  return rows[0] ?? null;
}

export interface ModelValues {
  code: string;
  name: string;
  basePower: bigint;
  giftPower: bigint;
  priceUsdt: bigint;
}

/** Adds a model or changes the one with this code. Devices already bound keep the power they were bound with. */
export async function upsertModel(db: Db | Tx, model: ModelValues, now: Date): Promise<DeviceModelRow> {
  const rows = await db
    .insert(deviceModels)
    .values({ ...model, createdAt: now })
    .onConflictDoUpdate({
      target: deviceModels.code,
      set: { name: model.name, basePower: model.basePower, giftPower: model.giftPower, priceUsdt: model.priceUsdt },
    })
    .returning();
  const row = rows[0];
  if (!row) throw new Error('device model upsert returned no row');
  return row;
}

export async function modelById(db: Db | Tx, id: number): Promise<DeviceModelRow> {
  const rows = await db.select().from(deviceModels).where(eq(deviceModels.id, id)).limit(1);
  if (!rows[0]) throw new Error(`device model ${id} missing`);
  return rows[0];
}

// ─── Devices ─────────────────────────────────────────────────────────────────────────────────

export async function findDeviceBySerial(db: Db | Tx, serial: string): Promise<DeviceRow | null> {
  const rows = await db.select().from(devices).where(eq(devices.serial, serial)).limit(1);
  return rows[0] ?? null;
}

/** Devices that hold one of these serials or public keys. */
export async function findDevicesTaking(db: Db | Tx, serials: string[], publicKeys: string[]): Promise<DeviceRow[]> {
  return db
    .select()
    .from(devices)
    .where(or(inArray(devices.serial, serials), inArray(devices.publicKey, publicKeys)));
}

export async function insertDevices(tx: Tx, rows: { serial: string; publicKey: string; modelId: number }[], now: Date): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = await tx
    .insert(devices)
    .values(rows.map((r) => ({ ...r, createdAt: now })))
    .returning({ id: devices.id });
  return inserted.length;
}

/**
 * The replay guard: the counter moves only forward, in one conditional update (two copies of one
 * heartbeat sent at once: one matches, the other finds the counter already there). Marks the
 * device seen. Null when the counter was not above the last one.
 */
export async function advanceCounter(tx: Tx, deviceId: number, counter: number, now: Date): Promise<{ ownerUserId: number | null } | null> {
  const rows = await tx
    .update(devices)
    .set({ lastCounter: counter, lastSeenAt: now, firstSeenAt: sql`coalesce(${devices.firstSeenAt}, ${now})` })
    .where(and(eq(devices.id, deviceId), sql`${devices.lastCounter} < ${counter}`))
    .returning({ ownerUserId: devices.ownerUserId });
  return rows[0] ?? null;
}

/** Binds an unbound device to its owner; answers whether it had been seen already, or null when it was bound. */
export async function bindDevice(tx: Tx, deviceId: number, userId: number, now: Date): Promise<{ firstSeenAt: Date | null; modelId: number } | null> {
  const rows = await tx
    .update(devices)
    .set({ ownerUserId: userId, boundAt: now })
    .where(and(eq(devices.id, deviceId), sql`${devices.ownerUserId} is null`))
    .returning({ firstSeenAt: devices.firstSeenAt, modelId: devices.modelId });
  return rows[0] ?? null;
}

// ─── Uptime ──────────────────────────────────────────────────────────────────────────────────

/**
 * Counts a heartbeat in the device's row of the epoch, one upsert: the epoch is cut into slots of one
 * heartbeat interval and a beat adds 1 only in a slot with no counted beat yet (`slotStart` is the
 * start of the slot `now` falls in), so beats never exceed the slots and a device beating faster
 * earns no more. Answers the epoch's beats after it.
 */
export async function countBeat(tx: Tx, deviceId: number, epoch: number, now: Date, slotStart: Date): Promise<number> {
  const counted = rowsOf<{ beats: number }>(
    await tx.execute(sql`
      insert into device_uptime (device_id, epoch, beats, last_beat_at) values (${deviceId}, ${epoch}, 1, ${now})
      on conflict (device_id, epoch) do update set beats = device_uptime.beats + 1, last_beat_at = excluded.last_beat_at
        where device_uptime.last_beat_at < ${slotStart}
      returning beats`),
  );
  if (counted[0]) return Number(counted[0].beats);
  const rows = rowsOf<{ beats: number }>(await tx.execute(sql`select beats from device_uptime where device_id = ${deviceId} and epoch = ${epoch}`));
  return Number(rows[0]?.beats ?? 0);
}

// ─── Activation codes ────────────────────────────────────────────────────────────────────────

export async function findCodeByHash(db: Db | Tx, codeHash: string): Promise<ActivationCodeRow | null> {
  const rows = await db.select().from(activationCodes).where(eq(activationCodes.codeHash, codeHash)).limit(1);
  return rows[0] ?? null;
}

export async function findCodeById(db: Db | Tx, id: number): Promise<ActivationCodeRow | null> {
  const rows = await db.select().from(activationCodes).where(eq(activationCodes.id, id)).limit(1);
  return rows[0] ?? null;
}

/** Issued → used, only if still issued and unexpired: of 20 parallel uses of one code, one matches. */
export async function useCode(tx: Tx, codeId: number, userId: number, now: Date): Promise<{ deviceId: number } | null> {
  const rows = await tx
    .update(activationCodes)
    .set({ state: 'used', usedBy: userId, usedAt: now })
    .where(
      and(
        eq(activationCodes.id, codeId),
        eq(activationCodes.state, 'issued'),
        sql`(${activationCodes.expiresAt} is null or ${activationCodes.expiresAt} > ${now})`,
      ),
    )
    .returning({ deviceId: activationCodes.deviceId });
  return rows[0] ?? null;
}

/** The devices with these serials, locked for the batch (two batches for one device run one after the other). */
export async function lockDevicesBySerial(tx: Tx, serials: string[]): Promise<{ id: number; serial: string }[]> {
  return tx.select({ id: devices.id, serial: devices.serial }).from(devices).where(inArray(devices.serial, serials)).for('update');
}

export async function codesOfDevices(tx: Tx, deviceIds: number[]): Promise<{ id: number; deviceId: number; state: string }[]> {
  return tx
    .select({ id: activationCodes.id, deviceId: activationCodes.deviceId, state: activationCodes.state })
    .from(activationCodes)
    .where(inArray(activationCodes.deviceId, deviceIds));
}

export async function insertBatch(tx: Tx, batch: { count: number; createdBy: number; expiresAt: Date | null }, now: Date): Promise<number> {
  const rows = await tx
    .insert(activationCodeBatches)
    .values({ ...batch, createdAt: now })
    .returning({ id: activationCodeBatches.id });
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('activation code batch insert returned no row');
  return id;
}

export interface NewCode {
  deviceId: number;
  codeHash: string;
  /** The device's revoked code, replaced in place (one code row per device). */
  replacesId: number | null;
}

export async function writeCodes(tx: Tx, batchId: number, codes: NewCode[], expiresAt: Date | null, now: Date): Promise<void> {
  const fresh = codes.filter((c) => c.replacesId === null);
  if (fresh.length > 0)
    await tx
      .insert(activationCodes)
      .values(fresh.map((c) => ({ batchId, deviceId: c.deviceId, codeHash: c.codeHash, state: 'issued', expiresAt, createdAt: now })));
  for (const c of codes) {
    if (c.replacesId === null) continue;
    await tx
      .update(activationCodes)
      .set({ batchId, codeHash: c.codeHash, state: 'issued', expiresAt, usedBy: null, usedAt: null, createdAt: now })
      .where(and(eq(activationCodes.id, c.replacesId), eq(activationCodes.state, 'revoked')));
  }
}

/** Issued → revoked; answers whether a code changed. */
export async function revokeIssuedCode(db: Db | Tx, deviceId: number): Promise<boolean> {
  const rows = await db
    .update(activationCodes)
    .set({ state: 'revoked' })
    .where(and(eq(activationCodes.deviceId, deviceId), eq(activationCodes.state, 'issued')))
    .returning({ id: activationCodes.id });
  return rows.length > 0;
}

export async function codeStateOfDevice(db: Db | Tx, deviceId: number): Promise<string | null> {
  const rows = await db.select({ state: activationCodes.state }).from(activationCodes).where(eq(activationCodes.deviceId, deviceId)).limit(1);
  return rows[0]?.state ?? null;
}

// ─── Activations and device miners ───────────────────────────────────────────────────────────

export interface NewActivation {
  userId: number;
  deviceId: number;
  codeId: number;
  isSuccess: boolean;
}

export async function insertActivation(tx: Tx, a: NewActivation, now: Date): Promise<number> {
  const rows = await tx
    .insert(activations)
    .values({
      userId: a.userId,
      deviceId: a.deviceId,
      codeId: a.codeId,
      status: a.isSuccess ? 'success' : 'pending',
      createdAt: now,
      succeededAt: a.isSuccess ? now : null,
    })
    .returning({ id: activations.id });
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('activation insert returned no row');
  return id;
}

/** Pending → success for the device's activation; answers it when this call made the change. */
export async function succeedActivation(tx: Tx, deviceId: number, now: Date): Promise<{ id: number; userId: number } | null> {
  const rows = await tx
    .update(activations)
    .set({ status: 'success', succeededAt: now })
    .where(and(eq(activations.deviceId, deviceId), eq(activations.status, 'pending')))
    .returning({ id: activations.id, userId: activations.userId });
  return rows[0] ?? null;
}

export async function activationStatusOfDevice(tx: Tx, deviceId: number): Promise<string | null> {
  const rows = await tx.select({ status: activations.status }).from(activations).where(eq(activations.deviceId, deviceId)).limit(1);
  return rows[0]?.status ?? null;
}

export interface ActivationView {
  id: number;
  status: string;
  serial: string;
  model: string;
  createdAt: Date;
  succeededAt: Date | null;
}

const activationView = {
  id: activations.id,
  status: activations.status,
  serial: devices.serial,
  model: deviceModels.name,
  createdAt: activations.createdAt,
  succeededAt: activations.succeededAt,
};

export async function findActivation(db: Db | Tx, id: number): Promise<ActivationView | null> {
  const rows = await db
    .select(activationView)
    .from(activations)
    .innerJoin(devices, eq(devices.id, activations.deviceId))
    .innerJoin(deviceModels, eq(deviceModels.id, devices.modelId))
    .where(eq(activations.id, id))
    .limit(1);
  return rows[0] ?? null;
}

export async function listActivations(db: Db, userId: number, offset: number, limit: number): Promise<{ rows: ActivationView[]; total: number }> {
  const [rows, totals] = await Promise.all([
    db
      .select(activationView)
      .from(activations)
      .innerJoin(devices, eq(devices.id, activations.deviceId))
      .innerJoin(deviceModels, eq(deviceModels.id, devices.modelId))
      .where(eq(activations.userId, userId))
      .orderBy(desc(activations.id))
      .offset(offset)
      .limit(limit),
    db.select({ n: count() }).from(activations).where(eq(activations.userId, userId)),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

/** What a miner's view shows of its device: serial, model name, last heartbeat, and its beats in an epoch. */
export interface DeviceFacts {
  serial: string;
  model: string;
  lastSeenAt: Date | null;
  beats: number;
}

/** The facts of these devices, by id, with their beats in `epoch` (0 without any). */
export async function deviceFacts(db: Db | Tx, ids: readonly number[], epoch: number): Promise<Map<number, DeviceFacts>> {
  if (ids.length === 0) return new Map();
  const rows = rowsOf<{ id: string | number; serial: string; model: string | null; last_seen_at: Date | string | null; beats: number | null }>(
    await db.execute(sql`
      select d.id, d.serial, dm.name as model, d.last_seen_at, du.beats
        from devices d
        left join device_models dm on dm.id = d.model_id
        left join device_uptime du on du.device_id = d.id and du.epoch = ${epoch}
       where d.id in (${sqlList([...new Set(ids)])})`),
  );
  return new Map(
    rows.map((r) => [
      Number(r.id),
      { serial: r.serial, model: r.model ?? '', lastSeenAt: r.last_seen_at == null ? null : new Date(r.last_seen_at), beats: Number(r.beats ?? 0) },
    ]),
  );
}

// ─── What the store reads of devices and models ──────────────────────────────────────────────

/** The code and power of these device models, by id (a store product sells one). */
export async function modelsByIds(
  db: Db | Tx,
  ids: readonly number[],
): Promise<Map<number, { code: string; name: string; basePower: bigint; giftPower: bigint }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: deviceModels.id, code: deviceModels.code, name: deviceModels.name, basePower: deviceModels.basePower, giftPower: deviceModels.giftPower })
    .from(deviceModels)
    .where(inArray(deviceModels.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r]));
}

/** The id of the device model with this code, or null. */
export async function modelIdByCode(db: Db | Tx, code: string): Promise<number | null> {
  const rows = await db.select({ id: deviceModels.id }).from(deviceModels).where(eq(deviceModels.code, code)).limit(1);
  return rows[0]?.id ?? null;
}

/** These devices in serial order: serial, model name and whether someone's code bound them. */
export async function devicesBySerialOrder(
  db: Db | Tx,
  ids: readonly number[],
): Promise<{ id: number; serial: string; model: string; isActivated: boolean }[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: devices.id, serial: devices.serial, model: deviceModels.name, owner: devices.ownerUserId })
    .from(devices)
    .innerJoin(deviceModels, eq(deviceModels.id, devices.modelId))
    .where(inArray(devices.id, [...new Set(ids)]))
    .orderBy(asc(devices.serial));
  return rows.map((r) => ({ id: r.id, serial: r.serial, model: r.model, isActivated: r.owner !== null }));
}

export interface DeviceToShip {
  id: number;
  serial: string;
  modelId: number;
  modelName: string;
  ownerUserId: number | null;
  /** The SHA-256 of its issued (unused, unrevoked) activation code, if it has one. */
  issuedCodeHash: string | null;
}

/** The devices with these serials in id order, locked (an activation racing a shipment waits), with what shipping checks. */
export async function lockDevicesToShip(tx: Tx, serials: string[], now: Date): Promise<DeviceToShip[]> {
  const rows = rowsOf<{ id: string; serial: string; model_id: number; model_name: string; owner_user_id: number | null; code_hash: string | null }>(
    await tx.execute(sql`
      select d.id::text as id, d.serial, d.model_id, m.name as model_name, d.owner_user_id,
             (select c.code_hash from activation_codes c where c.device_id = d.id and c.state = 'issued'
                 and (c.expires_at is null or c.expires_at > ${now})) as code_hash
        from devices d join device_models m on m.id = d.model_id
       where d.serial in (${sqlList(serials)})
       order by d.id
       for update of d`),
  );
  return rows.map((r) => ({
    id: Number(r.id),
    serial: r.serial,
    modelId: Number(r.model_id),
    modelName: r.model_name,
    ownerUserId: r.owner_user_id,
    issuedCodeHash: r.code_hash,
  }));
}
