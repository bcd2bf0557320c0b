// Each user's secret salt (docs/transparency.md, "Privacy"): 32 random bytes (node:crypto), made the
// first time a tree includes the user and kept for good, so that one user's key differs in every scope
// and nobody without the salt can tell whose a leaf is. Set-based: one read of the salts there are,
// then the missing ones inserted in batches (`on conflict do nothing`: two instances making the same
// user's salt at once keep the first, and the loser reads it back).
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

export const saltBytes = 32;
/** Salts inserted per statement. */
const saltsPerInsert = 10_000;

/** The salts of `userIds` (ascending), 32 bytes each in their order; those missing are made. */
export async function ensureSalts(db: Db, userIds: Uint32Array): Promise<Uint8Array> {
  const salts = new Uint8Array(userIds.length * saltBytes);
  const missing = await readSalts(db, userIds, salts);
  for (let i = 0; i < missing.length; i += saltsPerInsert) {
    const batch = missing.slice(i, i + saltsPerInsert);
    const fresh = batch.map(() => randomBytes(saltBytes));
    await db.execute(sql`
      insert into proof_salts (user_id, salt)
      select u, decode(s, 'hex') from unnest(${`{${batch.map((slot) => userIds[slot]).join(',')}}`}::int[], ${`{${fresh.map((b) => b.toString('hex')).join(',')}}`}::text[]) as x(u, s)
      on conflict (user_id) do nothing`);
  }
  if (missing.length > 0) {
    const still = await readSalts(db, userIds, salts);
    if (still.length > 0) throw new Error(`${still.length} salts could not be made`);
  }
  return salts;
}

/** Copies the stored salts into `salts` (in the users' order); answers the slots of the users without one. */
async function readSalts(db: Db, userIds: Uint32Array, salts: Uint8Array): Promise<number[]> {
  const rows = rowsOf<{ user_id: number; salt: Uint8Array }>(
    await db.execute(sql`select user_id, salt from proof_salts where user_id = any(${`{${userIds.join(',')}}`}::int[]) order by user_id`),
  );
  const missing: number[] = [];
  let r = 0;
  for (let slot = 0; slot < userIds.length; slot += 1) {
    const id = userIds[slot]!;
    while (r < rows.length && Number(rows[r]!.user_id) < id) r += 1;
    const row = rows[r];
    if (row && Number(row.user_id) === id) salts.set(row.salt, slot * saltBytes);
    else missing.push(slot);
  }
  return missing;
}

/** One user's salt, or null before any tree included them. */
export async function saltOf(db: Db, userId: number): Promise<Uint8Array | null> {
  const row = rowsOf<{ salt: Uint8Array }>(await db.execute(sql`select salt from proof_salts where user_id = ${userId}`))[0];
  return row ? new Uint8Array(row.salt) : null;
}
