// The reserve addresses an admin registered, and each snapshot's reserves (docs/transparency.md, "Reserves").
import { asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { proofReserveAddresses, proofSnapshotReserves } from './schema.ts';

export type ReserveAddressRow = typeof proofReserveAddresses.$inferSelect;
export type SnapshotReserveRow = typeof proofSnapshotReserves.$inferInsert;

export async function registeredReserves(db: Db | Tx): Promise<ReserveAddressRow[]> {
  return db.select().from(proofReserveAddresses).orderBy(asc(proofReserveAddresses.createdAt), asc(proofReserveAddresses.address));
}

export async function findRegistered(db: Db | Tx, address: string): Promise<ReserveAddressRow | null> {
  const rows = await db.select().from(proofReserveAddresses).where(eq(proofReserveAddresses.address, address)).limit(1);
  return rows[0] ?? null;
}

/** Registers an address, or replaces its label, message and signature (the address stays its key). */
export async function upsertRegistered(tx: Tx, row: Omit<ReserveAddressRow, 'createdAt'>): Promise<void> {
  await tx
    .insert(proofReserveAddresses)
    .values(row)
    .onConflictDoUpdate({
      target: proofReserveAddresses.address,
      set: { role: row.role, label: row.label, message: row.message, signature: row.signature, signer: row.signer },
    });
}

export async function insertSnapshotReserves(db: Db | Tx, rows: SnapshotReserveRow[]): Promise<void> {
  if (rows.length > 0) await db.insert(proofSnapshotReserves).values(rows);
}
