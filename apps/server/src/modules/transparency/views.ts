// The transparency contract's shapes (packages/api/src/transparency.ts) from the module's rows:
// snapshots with their covers, reserves and publication, an epoch's rewards, the public summary.
import { toDecimalString } from '@nadi/money/money';
import { unit } from '@nadi/economy/economy';
import {
  emissionHistoryEpochs,
  rewardKinds,
  type Publication,
  type RewardsInfo,
  type SnapshotDetail,
  type SnapshotInfo,
  type TransparencySummary,
} from '@nadi/api/transparency';
import type { AppDeps } from '../../deps.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { systemBalancesOf } from '../ledger/index.ts';
import { settledEpochEmissions } from '../mining/index.ts';
import { coversOf, findRewards, findTree, latestSnapshot, reservesOf, snapshotOfRewards, type CoverRow, type SnapshotRow } from './repo.ts';

/**
 * The NADI token's whole supply: minted once to the deployer, never more (packages/chain's NadiToken,
 * docs/transparency.md "Supply").
 */
export const nadiTotalSupply = 1_000_000_000n * unit;
/** The reward pools funded at genesis (docs/economy.md "Pools"): NADI set aside, not yet anyone's. */
export const rewardPools = ['mining_pool', 'node_pool', 'savings_pool', 'referral_pool', 'signin_pool'] as const;
/** Snapshots of cover history the summary answers (each with one point per asset). */
export const coverHistorySnapshots = 60;

/** Where the roots are published: the ProofPublisher contract (PROOF_PUBLISHER_ADDRESS), null when none is configured. */
export function publisherAddress(settings: AppDeps['settings']): string | null {
  return settings.proofPublisherAddress;
}

export function publicationOf(settings: AppDeps['settings'], s: SnapshotRow | null): Publication {
  return {
    state: s?.pubState ?? 'unpublished',
    chain_id: settings.chainId,
    contract: publisherAddress(settings),
    tx_hash: s?.pubTxHash ?? null,
    block_number: s?.pubBlockNumber === null || s?.pubBlockNumber === undefined ? null : s.pubBlockNumber.toString(),
    published_at: s?.publishedAt ? s.publishedAt.toISOString() : null,
  };
}

/** reserves ÷ liabilities with 4 decimals, rounded down; null when nothing is owed. */
export function coverRatio(reserves: bigint, liabilities: bigint): string | null {
  if (liabilities <= 0n) return null;
  const scaled = (reserves * 10_000n) / liabilities;
  return `${scaled / 10_000n}.${(scaled % 10_000n).toString().padStart(4, '0')}`;
}

export function snapshotInfoOf(settings: AppDeps['settings'], s: SnapshotRow, covers: CoverRow[]): SnapshotInfo {
  return {
    id: s.id,
    epoch: s.epoch,
    trigger: s.trigger,
    taken_at: s.takenAt.toISOString(),
    block_number: s.blockNumber.toString(),
    users: s.users,
    leaf_count: s.leafCount,
    liabilities_root: s.rootHash,
    liabilities_sums: s.rootSums.map(String),
    rewards_root: s.rewardsRoot,
    cover: covers
      .filter((c) => c.snapshotId === s.id)
      .map((c) => ({
        asset: c.asset,
        reserves: toDecimalString(c.reserves),
        liabilities: toDecimalString(c.liabilities),
        ratio: coverRatio(c.reserves, c.liabilities),
      })),
    publication: publicationOf(settings, s),
  };
}

export async function snapshotDetailOf(deps: AppDeps, s: SnapshotRow): Promise<SnapshotDetail> {
  const [covers, reserves] = await Promise.all([coversOf(deps.db, [s.id]), reservesOf(deps.db, s.id)]);
  return {
    ...snapshotInfoOf(deps.settings, s, covers),
    reserves: reserves.map((r) => ({
      address: r.address,
      role: r.role as SnapshotDetail['reserves'][number]['role'],
      label: r.label,
      message: r.message,
      signature: r.signature,
      signer: r.signer,
      balances: { NADI: toDecimalString(BigInt(r.nadi)), USDT: toDecimalString(BigInt(r.usdt)) },
    })),
  };
}

/** An epoch's rewards (NOT_FOUND until its tree is built). */
export async function rewardsInfoOf(deps: AppDeps, epoch: number): Promise<RewardsInfo> {
  const [rewards, tree, carrier] = await Promise.all([findRewards(deps.db, epoch), findTree(deps.db, `rewards:${epoch}`), snapshotOfRewards(deps.db, epoch)]);
  if (!rewards || !tree) throw new AppError('NOT_FOUND');
  const paid = rewardKinds.map((k) => BigInt(rewards.paid[k] ?? '0'));
  return {
    epoch,
    root: tree.rootHash,
    sums: tree.rootSums.map(String),
    leaf_count: tree.leafCount,
    paid: Object.fromEntries(rewardKinds.map((k, i) => [k, toDecimalString(paid[i]!)])),
    paid_total: toDecimalString(paid.reduce((s, x) => s + x, 0n)),
    scheduled: toDecimalString(rewards.scheduled),
    publication: publicationOf(deps.settings, carrier),
  };
}

/**
 * The public summary. Supply: the token's fixed total; burned, what the ledger's burn account received;
 * circulating, the total less what is burned and less the platform's own NADI (the latest snapshot's
 * reserves above what it owes users; docs/transparency.md "Supply").
 */
export async function transparencySummary(deps: AppDeps): Promise<TransparencySummary> {
  const [latest, pools, burn, emission, covers] = await Promise.all([
    latestSnapshot(deps.db),
    systemBalancesOf(deps.db, rewardPools),
    systemBalancesOf(deps.db, ['burn']),
    settledEpochEmissions(deps.db, emissionHistoryEpochs),
    coversOf(deps.db, null, coverHistorySnapshots),
  ]);
  const burned = BigInt(burn.find((b) => b.asset === 'NADI')?.balance ?? '0');
  const nadiCover = latest ? covers.find((c) => c.snapshotId === latest.id && c.asset === 'NADI') : undefined;
  const platformOwn = nadiCover && nadiCover.reserves > nadiCover.liabilities ? nadiCover.reserves - nadiCover.liabilities : 0n;
  const contract = publisherAddress(deps.settings);
  return {
    supply: {
      total: toDecimalString(nadiTotalSupply),
      burned: toDecimalString(burned),
      circulating: toDecimalString(maxZero(nadiTotalSupply - burned - platformOwn)),
    },
    emission: emission.map((e) => ({
      epoch: Number(e.epoch),
      ended_at: new Date(e.ends_at).toISOString(),
      emitted: toDecimalString(BigInt(e.paid)),
      scheduled: toDecimalString(BigInt(e.emission)),
    })),
    pools: pools.map((p) => ({ kind: p.kind, asset: p.asset, balance: toDecimalString(maxZero(BigInt(p.balance))) })),
    cover_history: covers.map((c) => ({
      snapshot_id: c.snapshotId,
      taken_at: c.takenAt.toISOString(),
      asset: c.asset,
      reserves: toDecimalString(c.reserves),
      liabilities: toDecimalString(c.liabilities),
    })),
    latest: latest ? await snapshotDetailOf(deps, latest) : null,
    contract: contract ? { chain_id: deps.settings.chainId, address: contract } : null,
  };
}

/** A tree's public data: its dimensions, size, root and where its leaves are downloaded. */
export async function treeInfo(db: Db, scope: string, downloadPath: string) {
  const tree = await findTree(db, scope);
  if (!tree) throw new AppError('NOT_FOUND');
  const root = { hash: tree.rootHash, sums: tree.rootSums.map(String) };
  return { scope, dims: tree.dims, leaf_count: tree.leafCount, root, download: `${downloadPath}?scope=${encodeURIComponent(scope)}` };
}

function maxZero(x: bigint): bigint {
  return x < 0n ? 0n : x;
}
