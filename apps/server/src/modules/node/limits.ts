// The per-user limits of buying nodes (docs/nodes-and-savings.md, "Quota and limits"). Counted
// under the buyer's lock (lockBuyer) when buying, so parallel requests and different pay methods
// count one after the other; a quote counts the same way without the lock.
import { unpaidNodeOrdersPerUserMax } from '@nadi/api/node';
import type { Db, Tx } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { takenByUser, unpaidCount, type TierRow } from './tier-repo.ts';

/** NODE_LIMIT_REACHED when the user's held nodes of the tier plus unpaid wallet orders for it reach its limit. */
export async function limitRefusal(db: Db | Tx, userId: number, tier: Pick<TierRow, 'id' | 'perUserLimit'>): Promise<AppError | null> {
  const taken = (await takenByUser(db, userId, [tier.id])).get(tier.id);
  if ((taken?.held ?? 0) + (taken?.unpaid ?? 0) < tier.perUserLimit) return null;
  return new AppError('NODE_LIMIT_REACHED', undefined, { params: { max: String(tier.perUserLimit) } });
}

/** NODE_UNPAID_LIMIT when the user already has the most unpaid wallet orders for nodes allowed. */
export async function unpaidRefusal(db: Db | Tx, userId: number): Promise<AppError | null> {
  if ((await unpaidCount(db, userId)) < unpaidNodeOrdersPerUserMax) return null;
  return new AppError('NODE_UNPAID_LIMIT', undefined, { params: { max: String(unpaidNodeOrdersPerUserMax) } });
}
