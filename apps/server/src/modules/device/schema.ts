// The device module's tables (docs/architecture.md "Table ownership"): only this module's code runs SQL on
// them; other modules reach them through device/index.ts. Other schema files import these only for
// foreign keys.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, units, power, at } from '../../db/columns.ts';
import { users } from '../user/schema.ts';

/** What the operator sells and registers: a kind of device and the power it brings. */
export const deviceModels = pgTable(
  'device_models',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    basePower: power('base_power').notNull(),
    giftPower: power('gift_power')
      .notNull()
      .default(sql`0`),
    priceUsdt: units('price_usdt')
      .notNull()
      .default(sql`0`),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('device_models_code_key').on(t.code),
    check('device_models_power', sql`${t.basePower} > 0 and ${t.giftPower} >= 0 and ${t.priceUsdt} >= 0`),
  ],
);

/**
 * One physical device: its serial and Ed25519 public key (hex), registered by the operator. Bound to
 * a user by an activation code; `lastCounter` refuses replayed heartbeats.
 */
export const devices = pgTable(
  'devices',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    serial: text('serial').notNull(),
    publicKey: text('public_key').notNull(),
    modelId: integer('model_id')
      .notNull()
      .references(() => deviceModels.id),
    ownerUserId: integer('owner_user_id').references(() => users.id),
    boundAt: at('bound_at'),
    lastCounter: bigint('last_counter', { mode: 'number' }).notNull().default(0),
    firstSeenAt: at('first_seen_at'),
    lastSeenAt: at('last_seen_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('devices_serial_key').on(t.serial), uniqueIndex('devices_public_key_key').on(t.publicKey), index('devices_owner_idx').on(t.ownerUserId)],
);

/** A batch of activation codes generated at once; the codes are shown once and stored hashed. */
export const activationCodeBatches = pgTable('activation_code_batches', {
  id: serial('id').primaryKey(),
  count: integer('count').notNull(),
  createdBy: integer('created_by').references(() => users.id),
  expiresAt: at('expires_at'),
  createdAt: createdAt(),
});

/** One code per device (printed in its box): SHA-256 of the normalised code, never the code itself. */
export const activationCodes = pgTable(
  'activation_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    batchId: integer('batch_id')
      .notNull()
      .references(() => activationCodeBatches.id),
    deviceId: bigint('device_id', { mode: 'number' })
      .notNull()
      .references(() => devices.id),
    codeHash: text('code_hash').notNull(),
    /** issued → used (bound once) or revoked. */
    state: text('state').notNull().default('issued'),
    expiresAt: at('expires_at'),
    usedBy: integer('used_by').references(() => users.id),
    usedAt: at('used_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('activation_codes_hash_key').on(t.codeHash),
    uniqueIndex('activation_codes_device_key').on(t.deviceId),
    check('activation_codes_state', sql`${t.state} in ('issued', 'used', 'revoked')`),
    check('activation_codes_used', sql`(${t.state} = 'used') = (${t.usedBy} is not null)`),
  ],
);

/** A user's activation of a device: pending until the device's first valid heartbeat, then success. */
export const activations = pgTable(
  'activations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    deviceId: bigint('device_id', { mode: 'number' })
      .notNull()
      .references(() => devices.id),
    codeId: bigint('code_id', { mode: 'number' })
      .notNull()
      .references(() => activationCodes.id),
    status: text('status').notNull().default('pending'),
    createdAt: createdAt(),
    succeededAt: at('succeeded_at'),
  },
  (t) => [
    uniqueIndex('activations_device_key').on(t.deviceId),
    uniqueIndex('activations_code_key').on(t.codeId),
    index('activations_user_idx').on(t.userId, t.id),
    check('activations_status', sql`${t.status} in ('pending', 'success')`),
  ],
);

/** Heartbeats of a device in an epoch, in aggregate (one row per device and epoch, not per beat). */
export const deviceUptime = pgTable(
  'device_uptime',
  {
    deviceId: bigint('device_id', { mode: 'number' })
      .notNull()
      .references(() => devices.id),
    epoch: integer('epoch').notNull(),
    beats: integer('beats').notNull(),
    lastBeatAt: at('last_beat_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.epoch] }), index('device_uptime_epoch_idx').on(t.epoch)],
);
