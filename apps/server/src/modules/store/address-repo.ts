// Delivery addresses in SQL. Every statement names the owner (`user_id`) beside the id, so a row of
// another user is never read or written: it is simply not found.
import { and, count, desc, eq } from 'drizzle-orm';
import type { AddressFields } from '@nadi/api/store-address';
import type { Db, Tx } from '../../db/client.ts';
import { addresses } from './schema.ts';
import { lockUserRow } from '../user/index.ts';

export type AddressRow = typeof addresses.$inferSelect;
type AddressText = Omit<AddressFields, 'is_default'>;

/** The default first, then the newest (id breaks a tie of equal times). */
const listOrder = [desc(addresses.isDefault), desc(addresses.createdAt), desc(addresses.id)];

/**
 * Serialises every address change of one user: a row lock on the user, which exists even before
 * the first address (a lock on the addresses themselves would leave two first adds unordered).
 * FOR NO KEY UPDATE, not FOR UPDATE, so inserts elsewhere referencing the user (their foreign-key
 * checks take KEY SHARE) are not held up.
 */
export async function lockUserAddresses(tx: Tx, userId: number): Promise<void> {
  await lockUserRow(tx, userId);
}

export async function listAddresses(db: Db | Tx, userId: number, limit: number): Promise<AddressRow[]> {
  return db
    .select()
    .from(addresses)
    .where(eq(addresses.userId, userId))
    .orderBy(...listOrder)
    .limit(limit);
}

export async function countAddresses(db: Db | Tx, userId: number): Promise<number> {
  const rows = await db.select({ n: count() }).from(addresses).where(eq(addresses.userId, userId));
  return rows[0]?.n ?? 0;
}

export async function findAddress(db: Db | Tx, userId: number, id: number): Promise<AddressRow | null> {
  const rows = await db
    .select()
    .from(addresses)
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
    .limit(1);
  return rows[0] ?? null;
}

export async function findDefaultAddress(db: Db | Tx, userId: number): Promise<AddressRow | null> {
  const rows = await db
    .select()
    .from(addresses)
    .where(and(eq(addresses.userId, userId), eq(addresses.isDefault, true)))
    .limit(1);
  return rows[0] ?? null;
}

/** Clears the user's default. Called before another row is made the default, so the one-default index never sees two. */
export async function clearDefaultAddress(tx: Tx, userId: number, now: Date): Promise<void> {
  await tx
    .update(addresses)
    .set({ isDefault: false, updatedAt: now })
    .where(and(eq(addresses.userId, userId), eq(addresses.isDefault, true)));
}

export async function insertAddress(tx: Tx, userId: number, fields: AddressText, isDefault: boolean, now: Date): Promise<AddressRow> {
  const rows = await tx
    .insert(addresses)
    .values({ userId, ...columnsOf(fields), isDefault, createdAt: now, updatedAt: now })
    .returning();
  const row = rows[0];
  if (!row) throw new Error('insert into addresses returned no row');
  return row;
}

export async function updateAddress(tx: Tx, userId: number, id: number, fields: AddressText, isDefault: boolean, now: Date): Promise<AddressRow | null> {
  const rows = await tx
    .update(addresses)
    .set({ ...columnsOf(fields), isDefault, updatedAt: now })
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
    .returning();
  return rows[0] ?? null;
}

export async function markDefaultAddress(tx: Tx, userId: number, id: number, now: Date): Promise<AddressRow | null> {
  const rows = await tx
    .update(addresses)
    .set({ isDefault: true, updatedAt: now })
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
    .returning();
  return rows[0] ?? null;
}

export async function deleteAddress(tx: Tx, userId: number, id: number): Promise<AddressRow | null> {
  const rows = await tx
    .delete(addresses)
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
    .returning();
  return rows[0] ?? null;
}

/** Makes the user's newest address the default (after the default was deleted); null when none is left. */
export async function promoteNewestAddress(tx: Tx, userId: number, now: Date): Promise<AddressRow | null> {
  const newest = await listAddresses(tx, userId, 1);
  const row = newest[0];
  return row ? markDefaultAddress(tx, userId, row.id, now) : null;
}

function columnsOf(fields: AddressText) {
  return { receiverName: fields.receiver_name, phoneCountry: fields.phone_country, phone: fields.phone, area: fields.area, detail: fields.detail };
}
