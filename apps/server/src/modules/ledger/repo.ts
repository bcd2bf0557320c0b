import { sql } from 'drizzle-orm';
import type { Asset } from '@nadi/api/wallet';
import type { Db, Tx } from '../../db/client.ts';

const userKinds: { kind: string; asset: Asset }[] = [
  { kind: 'fund', asset: 'NADI' },
  { kind: 'fund', asset: 'USDT' },
  { kind: 'trade', asset: 'NADI' },
  { kind: 'trade', asset: 'USDT' },
  { kind: 'destroy_quota', asset: 'USDT' },
];

/** Every user has the same five accounts from registration on. */
export async function createUserAccounts(tx: Db | Tx, userId: number): Promise<void> {
  const values = userKinds.map((k) => sql`(${userId}::int, ${k.kind}, ${k.asset}, false)`);
  await tx.execute(sql`insert into ledger_accounts (user_id, kind, asset, is_system) values ${sql.join(values, sql`, `)} on conflict do nothing`);
}
