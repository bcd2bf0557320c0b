// Delivery addresses (docs/store.md, "Addresses"): at most addressesPerUserMax per user and exactly
// one default while a user has any. Every change runs in one transaction holding the user's address
// lock, so the count checked is the count written against, and two changes of the default cannot
// interleave; the partial unique index addresses_one_default is the last line behind that rule.
import { addressesPerUserMax, type AddressFields, type AddressItem } from '@nadi/api/store-address';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import {
  clearDefaultAddress,
  countAddresses,
  deleteAddress,
  findAddress,
  findDefaultAddress,
  insertAddress,
  listAddresses,
  lockUserAddresses,
  markDefaultAddress,
  promoteNewestAddress,
  updateAddress,
  type AddressRow,
} from './address-repo.ts';

export interface AddressDeps {
  db: Db;
  now: () => Date;
}

export function toAddressItem(row: AddressRow): AddressItem {
  return {
    id: row.id,
    receiver_name: row.receiverName,
    phone_country: row.phoneCountry,
    phone: row.phone,
    area: row.area,
    detail: row.detail,
    is_default: row.isDefault,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Another user's address answers exactly like a missing one. */
function found(row: AddressRow | null): AddressRow {
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

export async function listMyAddresses(db: Db, userId: number) {
  const [rows, total] = await Promise.all([listAddresses(db, userId, addressesPerUserMax), countAddresses(db, userId)]);
  return { list: rows.map(toAddressItem), total, max: addressesPerUserMax };
}

export async function getMyAddress(db: Db, userId: number, id: number): Promise<AddressItem> {
  return toAddressItem(found(await findAddress(db, userId, id)));
}

export async function getMyDefaultAddress(db: Db, userId: number): Promise<AddressItem | null> {
  const row = await findDefaultAddress(db, userId);
  return row ? toAddressItem(row) : null;
}

/** The first address, or one sent with is_default, becomes the default; past the maximum it is refused. */
export async function addAddress(deps: AddressDeps, userId: number, fields: AddressFields): Promise<AddressItem> {
  const now = deps.now();
  const row = await deps.db.transaction(async (tx) => {
    await lockUserAddresses(tx, userId);
    const held = await countAddresses(tx, userId);
    if (held >= addressesPerUserMax) throw new AppError('ADDRESS_LIMIT_REACHED', undefined, { params: { max: String(addressesPerUserMax) } });
    const isDefault = held === 0 || fields.is_default;
    if (isDefault) await clearDefaultAddress(tx, userId, now);
    return insertAddress(tx, userId, fields, isDefault, now);
  });
  return toAddressItem(row);
}

/** is_default true makes it the default; false on the default keeps it (a user with addresses always has one). */
export async function editAddress(deps: AddressDeps, userId: number, id: number, fields: AddressFields): Promise<AddressItem> {
  const now = deps.now();
  const row = await deps.db.transaction(async (tx) => {
    await lockUserAddresses(tx, userId);
    const current = found(await findAddress(tx, userId, id));
    const isDefault = current.isDefault || fields.is_default;
    if (isDefault && !current.isDefault) await clearDefaultAddress(tx, userId, now);
    return found(await updateAddress(tx, userId, id, fields, isDefault, now));
  });
  return toAddressItem(row);
}

/** Deleting the default hands it to the newest remaining address. */
export async function removeAddress(deps: AddressDeps, userId: number, id: number): Promise<{ id: number; default_id: number | null }> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    await lockUserAddresses(tx, userId);
    const deleted = found(await deleteAddress(tx, userId, id));
    const next = deleted.isDefault ? await promoteNewestAddress(tx, userId, now) : await findDefaultAddress(tx, userId);
    return { id: deleted.id, default_id: next?.id ?? null };
  });
}

export async function setDefaultAddress(deps: AddressDeps, userId: number, id: number): Promise<AddressItem> {
  const now = deps.now();
  const row = await deps.db.transaction(async (tx) => {
    await lockUserAddresses(tx, userId);
    const current = found(await findAddress(tx, userId, id));
    if (current.isDefault) return current;
    await clearDefaultAddress(tx, userId, now);
    return found(await markDefaultAddress(tx, userId, id, now));
  });
  return toAddressItem(row);
}
