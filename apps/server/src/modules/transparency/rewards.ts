// A settled epoch's rewards tree (docs/transparency.md, "Rewards"): one leaf set per user with income
// in the epoch, a NADI sum per kind (mining, savings, node, team), from each module's income records of
// the epoch; beside it, what each reward pool paid in the epoch's settlement flows (from the ledger)
// and the emission schedule's amount (packages/economy). The root's sums must equal what the pools
// paid, kind by kind, or the tree is not written (docs/style.md rule 8).
import { emissionOf } from '@nadi/economy/economy';
import { rewardKinds, type RewardKind } from '@nadi/api/transparency';
import type { Db, Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { systemOutflowOfFlows } from '../ledger/index.ts';
import { miningIncomeOfEpoch, paramsAt } from '../mining/index.ts';
import { nodeIncomeOfEpoch } from '../node/index.ts';
import { interestOfEpoch } from '../pledge/index.ts';
import { teamIncomeOfEpoch } from '../team/index.ts';
import { buildUserTree, UserSums } from './build.ts';
import { CryptoRandom, type TreeRandom } from './random.ts';
import { findRewards, insertRewards, insertTree, lockWrites } from './repo.ts';
import { ensureSalts } from './salts.ts';

/** Each kind's settlement flow (its key, `<part>:epoch:<n>`) and the pool it is paid from (docs/settlement.md). */
export const rewardSources: Record<RewardKind, { flow: string; pool: string }> = {
  mining: { flow: 'mining', pool: 'mining_pool' },
  savings: { flow: 'pledge', pool: 'savings_pool' },
  node: { flow: 'node', pool: 'node_pool' },
  team: { flow: 'team', pool: 'referral_pool' },
};

export type RewardsOutcome = { status: 'built'; epoch: number; sums: bigint[] } | { status: 'already' };

/** What the reward pools paid in an epoch's settlement flows, per kind (base units), from the ledger. */
export async function poolsPaid(db: Db | Tx, epoch: number): Promise<Record<RewardKind, bigint>> {
  const rows = await systemOutflowOfFlows(
    db,
    rewardKinds.map((k) => `${rewardSources[k].flow}:epoch:${epoch}`),
    rewardKinds.map((k) => rewardSources[k].pool),
  );
  const paid = Object.fromEntries(rewardKinds.map((k) => [k, 0n])) as Record<RewardKind, bigint>;
  for (const r of rows) {
    const kind = rewardKinds.find((k) => rewardSources[k].pool === r.kind);
    if (kind && r.asset === 'NADI') paid[kind] += BigInt(r.amount);
  }
  return paid;
}

/** Builds and stores the rewards tree of a settled epoch (once: `already` when it exists). */
export async function buildRewards(deps: AppDeps, epoch: number, options: { random?: TreeRandom } = {}): Promise<RewardsOutcome> {
  if (await findRewards(deps.db, epoch)) return { status: 'already' };
  // A settled epoch's records never change; one read-only snapshot keeps the sources together anyway.
  const { sums, paid } = await deps.db.transaction(
    async (tx) => {
      const sums = new UserSums(rewardKinds.length);
      sums.addRows(0, await miningIncomeOfEpoch(tx, epoch));
      sums.addRows(1, await interestOfEpoch(tx, epoch));
      sums.addRows(2, await nodeIncomeOfEpoch(tx, epoch));
      sums.addRows(3, await teamIncomeOfEpoch(tx, epoch));
      return { sums, paid: await poolsPaid(tx, epoch) };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  const totals = sums.totals();
  rewardKinds.forEach((k, d) => {
    if (totals[d] !== paid[k])
      throw new Error(`epoch ${epoch}: the ${k} income records add up to ${totals[d]}, but the ${rewardSources[k].pool} paid ${paid[k]}`);
  });
  const scheduled = emissionOf(epoch, await paramsAt(deps.db, deps.settings, epoch));
  const scope = `rewards:${epoch}`;
  const { userIds, sums: columns } = sums.sorted();
  const built = await buildUserTree({
    scope,
    dims: rewardKinds.length,
    userIds,
    sums: columns,
    salts: await ensureSalts(deps.db, userIds),
    random: options.random ?? new CryptoRandom(),
  });
  const written = await deps.db.transaction(async (tx) => {
    await lockWrites(tx);
    if (await findRewards(tx, epoch)) return false;
    await insertTree(tx, scope, rewardKinds, built);
    await insertRewards(tx, epoch, Object.fromEntries(rewardKinds.map((k) => [k, paid[k].toString()])), scheduled);
    return true;
  });
  return written ? { status: 'built', epoch, sums: built.root.sums } : { status: 'already' };
}
