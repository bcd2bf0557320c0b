// A snapshot as the contract's snapshotInfo answers it (packages/api/src/transparency.ts), for the
// operator's publish route. The publication part is what the chain work of publish.ts records.
import { eq } from 'drizzle-orm';
import { liabilityDims, type Publication, type SnapshotInfo } from '@nadi/api/transparency';
import { toDecimalString } from '@nadi/money/money';
import type { AppSettings } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/app-error.ts';
import { findSnapshot, type SnapshotRow } from './publish-repo.ts';
import { proofSnapshotCovers, proofTrees } from './schema.ts';

/** The publication of a snapshot: where (chain, contract) and, once sent, which transaction. */
export function publicationInfo(row: SnapshotRow, settings: Pick<AppSettings, 'chainId' | 'proofPublisherAddress'>): Publication {
  return {
    state: row.pubState as Publication['state'],
    chain_id: row.pubChainId ?? settings.chainId,
    contract: settings.proofPublisherAddress,
    tx_hash: row.pubTxHash,
    block_number: row.pubBlockNumber === null ? null : row.pubBlockNumber.toString(),
    published_at: row.publishedAt ? row.publishedAt.toISOString() : null,
  };
}

/** reserves ÷ liabilities with 4 decimals (rounded down), null when nothing is owed. */
export function coverRatio(reserves: bigint, liabilities: bigint): string | null {
  if (liabilities <= 0n) return null;
  const q = (reserves * 10_000n) / liabilities;
  return `${q / 10_000n}.${(q % 10_000n).toString().padStart(4, '0')}`;
}

async function coversOf(db: Db, id: number): Promise<SnapshotInfo['cover']> {
  const rows = await db.select().from(proofSnapshotCovers).where(eq(proofSnapshotCovers.snapshotId, id));
  return liabilityDims.flatMap((asset) => {
    const row = rows.find((r) => r.asset === asset);
    return row
      ? [{ asset, reserves: toDecimalString(row.reserves), liabilities: toDecimalString(row.liabilities), ratio: coverRatio(row.reserves, row.liabilities) }]
      : [];
  });
}

export async function snapshotInfoOf(deps: Pick<AppDeps, 'db' | 'settings'>, id: number): Promise<SnapshotInfo> {
  const row = await findSnapshot(deps.db, id);
  if (!row) throw new AppError('NOT_FOUND');
  const [liabilities, rewards, cover] = await Promise.all([
    deps.db
      .select()
      .from(proofTrees)
      .where(eq(proofTrees.scope, `snapshot:${id}`)),
    row.rewardsEpoch === null
      ? Promise.resolve([])
      : deps.db
          .select()
          .from(proofTrees)
          .where(eq(proofTrees.scope, `rewards:${row.rewardsEpoch}`)),
    coversOf(deps.db, id),
  ]);
  const tree = liabilities[0];
  return {
    id: row.id,
    epoch: row.epoch,
    trigger: row.trigger as SnapshotInfo['trigger'],
    taken_at: row.takenAt.toISOString(),
    block_number: row.blockNumber.toString(),
    users: tree?.users ?? 0,
    leaf_count: tree?.leafCount ?? 0,
    liabilities_root: tree?.rootHash ?? '',
    liabilities_sums: (tree?.rootSums ?? []).map((s) => BigInt(s).toString()),
    rewards_root: rewards[0]?.rootHash ?? null,
    cover,
    publication: publicationInfo(row, deps.settings),
  };
}
