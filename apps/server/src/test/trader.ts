import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { units } from '@nadi/money/money';
import type { Asset } from '@nadi/api/wallet';
import type { Db } from '../db/client.ts';
import { runFlow } from '../modules/ledger/index.ts';
import { rootInviteCode } from './harness.ts';
import { newAccount, signIn } from './sign-in.ts';

export interface Trader {
  token: string;
  id: number;
}

/** A new signed-in user whose trade account holds `funds`, given from the treasury through the ledger. */
export async function newTrader(app: FastifyInstance, db: Db, funds: Partial<Record<Asset, string>> = {}): Promise<Trader> {
  const token = await signIn(app, newAccount(), rootInviteCode);
  const id = (await app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: token } })).json().data.id as number;
  for (const [asset, amount] of Object.entries(funds)) {
    await runFlow(db, {
      idempotencyKey: `test-trade-fund:${randomUUID()}`,
      userId: id,
      type: 'data_adjustment',
      params: { id, asset, amount },
      legs: [
        {
          type: 'data_adjustment',
          debit: { userId: null, kind: 'treasury', asset: asset as Asset },
          credit: { userId: id, kind: 'trade', asset: asset as Asset },
          amount: units(amount),
        },
      ],
      result: () => null,
    });
  }
  return { token, id };
}
