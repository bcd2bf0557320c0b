import type { Db, Tx } from '../db/client.ts';

class RolledBack extends Error {
  constructor() {
    super('rolled back on purpose');
  }
}

/**
 * Runs `body` in a transaction that is always rolled back and returns what it saw: statistics and
 * rows a test reads inside it, while nothing it wrote stays.
 */
export async function inRolledBackTransaction<T>(db: Db, body: (tx: Tx) => Promise<T>): Promise<T> {
  const seen: { value?: T } = {};
  await db
    .transaction(async (tx) => {
      seen.value = await body(tx);
      throw new RolledBack();
    })
    .catch((e: unknown) => {
      if (!(e instanceof RolledBack)) throw e;
    });
  if (!('value' in seen)) throw new Error('the rolled-back transaction returned nothing');
  return seen.value as T;
}
