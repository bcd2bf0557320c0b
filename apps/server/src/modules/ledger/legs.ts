// The ledger's vocabulary: every leg a module posts is built by one of these, so a freeze is the
// same move (and the same journal row) wherever it happens, and a reader sees what a flow does
// without decoding parts. Each returns a plain Leg; runFlow / postFlow / flowJson check and post it.
// What each leg moves:
//   transfer  from.available → to.available             (any record type)
//   freeze    account.available → account.frozen        (type 'freeze')
//   unfreeze  account.frozen → account.available        (type 'unfreeze')
//   settle    from.frozen → to.available                (a trade, a withdrawal, a fee out of a hold)
//   fee       from.available → the system fees account of the asset
//   burn      from.available → the system burn account of the asset
//   reward    the system rewards pool of the asset → to.available
import type { Asset, RecordType, SystemAccountKind, UserAccountKind } from '@nadi/api/wallet';
import type { AccountRef, Leg } from './ledger.ts';

type Memo = Record<string, unknown>;

export function userAccount(userId: number, kind: UserAccountKind, asset: Asset): AccountRef {
  return { userId, kind, asset };
}

export function systemAccount(kind: SystemAccountKind, asset: Asset): AccountRef {
  return { userId: null, kind, asset };
}

export function transfer(type: RecordType, from: AccountRef, to: AccountRef, amount: bigint, memo?: Memo): Leg {
  return { type, debit: from, credit: to, amount, ...(memo ? { memo } : {}) };
}

/** Sets an amount aside inside one account, e.g. for an open order or a withdrawal request. */
export function freeze(account: AccountRef, amount: bigint, memo?: Memo): Leg {
  return { type: 'freeze', debit: account, debitPart: 'available', credit: account, creditPart: 'frozen', amount, ...(memo ? { memo } : {}) };
}

/** Gives a held amount back to available inside the same account. */
export function unfreeze(account: AccountRef, amount: bigint, memo?: Memo): Leg {
  return { type: 'unfreeze', debit: account, debitPart: 'frozen', credit: account, creditPart: 'available', amount, ...(memo ? { memo } : {}) };
}

/** Spends what a hold set aside: out of `from`'s frozen part into `to`'s available part. */
export function settle(type: RecordType, from: AccountRef, to: AccountRef, amount: bigint, memo?: Memo): Leg {
  return { type, debit: from, debitPart: 'frozen', credit: to, amount, ...(memo ? { memo } : {}) };
}

/** A fee paid from available funds to the platform's fees account of the same asset. */
export function fee(type: RecordType, from: AccountRef, amount: bigint, memo?: Memo): Leg {
  return transfer(type, from, systemAccount('fees', from.asset), amount, memo);
}

/** Takes an amount out of circulation into the burn account of the same asset. */
export function burn(type: RecordType, from: AccountRef, amount: bigint, memo?: Memo): Leg {
  return transfer(type, from, systemAccount('burn', from.asset), amount, memo);
}

/** Pays a reward out of the rewards pool of the same asset. */
export function reward(type: RecordType, to: AccountRef, amount: bigint, memo?: Memo): Leg {
  return transfer(type, systemAccount('rewards_pool', to.asset), to, amount, memo);
}
