import { createHash } from 'node:crypto';

/**
 * The hash of a request's parameters, stored beside its idempotency key: a repeat of the key with
 * other parameters is a conflict. Bigints are hashed as their decimal text, so the hash of the same
 * amounts never changes with how they were typed. Flows opened in SQL hash theirs alike:
 * ledger_params_hash (modules/ledger/sql/ledger_params_text.sql writes the same text as
 * JSON.stringify, keys in the order given); params-hash.test.ts in the ledger module compares the two.
 */
export function hashParams(params: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(params, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)))
    .digest('hex');
}
