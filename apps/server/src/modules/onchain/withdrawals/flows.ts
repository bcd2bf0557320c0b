// The ledger side of a withdrawal: three flows, each keyed by what it is for, so none can post twice.
//   request    fund available → fund frozen (the whole amount)              key: the request's key
//   completed  fund frozen → custody (receive) + fund frozen → fees (fee)   key: withdraw-complete:<id>
//   returned   fund frozen → custody → fund available (the whole amount)    key: withdraw-return:<id>
// The return passes through custody rather than moving frozen → available inside the account: a
// move inside one account changes no total and is not a fund record, and the user must see the
// "withdraw return" record of docs/product.md section 3 (beside the "withdraw" it undoes) in the fund records.
import type { Tx } from '../../../db/client.ts';
import { freeze, postFlow, settle, systemAccount, transfer, userAccount, type AccountRef, type Leg } from '../../ledger/index.ts';
import type { WithdrawalRow } from './repo.ts';

const fundNadi = (userId: number): AccountRef => userAccount(userId, 'fund', 'NADI');
const custody = systemAccount('custody', 'NADI');

export const withdrawFlowKeys = {
  complete: (id: number) => `withdraw-complete:${id}`,
  return: (id: number) => `withdraw-return:${id}`,
};

/** The request's hold: the whole amount (fee included) set aside in the fund account. */
export function freezeLeg(userId: number, amount: bigint, withdrawalId: number): Leg {
  return freeze(fundNadi(userId), amount, { withdrawal_id: withdrawalId });
}

/** The transfer is final on chain: what the user received goes to custody, the fee to the fees account. */
export async function postCompletion(tx: Tx, w: WithdrawalRow): Promise<void> {
  const memo = { withdrawal_id: w.id, tx_hash: w.txHash };
  const legs: Leg[] = [settle('withdraw', fundNadi(w.userId), custody, w.receive, memo)];
  if (w.fee > 0n) legs.push(settle('withdraw_fee', fundNadi(w.userId), systemAccount('fees', 'NADI'), w.fee, memo));
  await postFlow(tx, {
    idempotencyKey: withdrawFlowKeys.complete(w.id),
    userId: w.userId,
    type: 'withdraw',
    params: { withdrawalId: w.id, receive: w.receive, fee: w.fee },
    legs,
    result: () => null,
  });
}

/** Rejected, or failed on chain: the whole amount comes back to available as a "withdraw return". */
export async function postReturn(tx: Tx, w: WithdrawalRow): Promise<void> {
  const memo = { withdrawal_id: w.id };
  await postFlow(tx, {
    idempotencyKey: withdrawFlowKeys.return(w.id),
    userId: w.userId,
    type: 'withdraw_return',
    params: { withdrawalId: w.id, amount: w.amount },
    legs: [settle('withdraw', fundNadi(w.userId), custody, w.amount, memo), transfer('withdraw_return', custody, fundNadi(w.userId), w.amount, memo)],
    result: () => null,
  });
}
