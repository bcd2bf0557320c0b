// The legs an epoch's settlement posted to users' accounts (docs/settlement.md): every chunk of epoch n
// posts one flow `settle:epoch:<n>:chunk:<k>` holding all parts' legs of its users; tests pick a part's
// legs by their types.
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';

export interface EpochLeg {
  user_id: number;
  type: string;
  asset: string;
  amount: string;
}

/** The legs of epoch `epoch`'s chunks credited to a user account, with one of `types`, in journal order. */
export async function epochLegs(db: Db | Tx, epoch: number, types: readonly string[]): Promise<EpochLeg[]> {
  const list = sql.join(
    types.map((t) => sql`${t}`),
    sql`, `,
  );
  return rowsOf<EpochLeg>(
    await db.execute(sql`select a.user_id, t.type, t.asset, t.amount::text from ledger_transfers t join ledger_flows f on f.id = t.flow_id
                          join ledger_accounts a on a.id = t.credit_account_id
                         where f.idempotency_key like ${`settle:epoch:${epoch}:chunk:%`} and a.user_id is not null and t.type in (${list})
                         order by t.id`),
  ).map((l) => ({ ...l, user_id: Number(l.user_id) }));
}
