// A liabilities snapshot (docs/transparency.md, "Liabilities"): what the platform owes every user per
// asset, read in ONE repeatable-read, read-only transaction (so every source is the same instant), a
// tree over it, then the reserves at the chain's block and the cover of each asset. Set-based: one
// aggregate query per source, Maps keyed by user id, typed arrays; never a query per user.
//
// A user's liabilities: fund and trade accounts (available + frozen), principal in active savings,
// savings interest not claimed yet, mining income vesting (locked + claimable). Every user holding
// accounts gets a leaf, zero included, so a user left out can always tell (docs/transparency.md).
import type { AppDeps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { liabilityDims } from '@nadi/api/transparency';
import { toHex } from '@nadi/proof/tree';
import { headWaitMs, ledgerHeadIn, ledgerHeadMissed, systemBalancesOf, userLiabilitiesIn, type LedgerHead } from '../ledger/index.ts';
import { lastSettledEpoch, postingEpoch, vestingByUserIn } from '../mining/index.ts';
import { interestClaimableByUserIn, pledgedByUserIn } from '../pledge/index.ts';
import { buildUserTree, UserSums } from './build.ts';
import { CryptoRandom, type TreeRandom } from './random.ts';
import { captureReserves } from './reserves.ts';
import { findTree, hasEpochSnapshot, insertSnapshot, insertTree, lastSnapshotAt, lockWrites, nextSnapshotId, writeCovers, deleteSnapshot } from './repo.ts';
import { ensureSalts } from './salts.ts';
import { databaseNow } from './repo.ts';

/** An operator may take a snapshot at most this often (each one reads every user: docs/limits.md). */
export const operatorSnapshotIntervalMs = 60_000;
/** Reads of the books a snapshot tries before giving up when transfers keep committing across it. */
const readAttemptsMax = 3;
/** The system accounts that hold what the module tables say users are owed (the ledger audit's owedAccounts). */
const owedKinds = { pledged: 'pledged', interest: 'savings_interest', vesting: 'vesting' } as const;

export type SnapshotTrigger = 'epoch' | 'operator';

export type SnapshotOutcome =
  | { status: 'taken'; snapshotId: number }
  /** The epoch already has its snapshot (another instance, or an earlier round, took it). */
  | { status: 'already' }
  /** Not now: an epoch is being posted, the last settled epoch is not the one asked for, or transfers kept committing across the read. */
  | { status: 'busy'; why: 'posting' | 'moved' | 'missed' };

export interface SnapshotOptions {
  /** The operator who asked (audited); absent for the job. */
  actorId?: number;
  random?: TreeRandom;
  /** How long to wait for the transactions running at the snapshot (ledgerHeadMissed). */
  headWaitMs?: number;
}

interface BooksRead {
  head: LedgerHead;
  epoch: number | null;
  takenAt: Date;
  readAt: Date;
  sums: UserSums;
}

/**
 * Takes a liabilities snapshot. `epoch` (trigger 'epoch') is the settled epoch it is taken at the end
 * of: the snapshot is taken once per epoch, and only while that epoch is still the last settled one;
 * an operator's snapshot (epoch null) records the last settled epoch it saw.
 */
export async function takeSnapshot(deps: AppDeps, trigger: SnapshotTrigger, epoch: number | null, options: SnapshotOptions = {}): Promise<SnapshotOutcome> {
  if (trigger === 'epoch' && (epoch === null || (await hasEpochSnapshot(deps.db, epoch)))) return { status: 'already' };
  if (trigger === 'operator') await refuseTooSoon(deps.db, deps.now());
  let read: BooksRead | 'posting' | 'missed' = 'missed';
  for (let attempt = 1; attempt <= readAttemptsMax && read === 'missed'; attempt += 1) {
    read = await readBooks(deps);
    if (typeof read !== 'string' && (await ledgerHeadMissed(deps.db, read.head, options.headWaitMs ?? headWaitMs))) read = 'missed';
  }
  if (typeof read === 'string') return { status: 'busy', why: read };
  if (trigger === 'epoch' && read.epoch !== epoch) return { status: 'busy', why: 'moved' };

  const id = await nextSnapshotId(deps.db);
  const scope = `snapshot:${id}`;
  const { userIds, sums } = read.sums.sorted();
  const built = await buildUserTree({
    scope,
    dims: liabilityDims.length,
    userIds,
    sums,
    salts: await ensureSalts(deps.db, userIds),
    random: options.random ?? new CryptoRandom(),
  });
  const totals = read.sums.totals();
  if (built.root.sums.some((s, d) => s !== totals[d]))
    throw new Error(`snapshot ${id}: the root sums ${built.root.sums.join('/')} differ from the books ${totals.join('/')}`);

  const written = await deps.db.transaction(async (tx) => {
    await lockWrites(tx);
    if (trigger === 'epoch' && (await hasEpochSnapshot(tx, read.epoch!))) return false;
    if (trigger === 'operator') await refuseTooSoon(tx, deps.now());
    const rewardsEpoch = trigger === 'epoch' && (await findTree(tx, `rewards:${read.epoch}`)) ? read.epoch : null;
    await insertTree(tx, scope, liabilityDims, built);
    await insertSnapshot(tx, {
      id,
      epoch: read.epoch,
      trigger,
      takenAt: read.takenAt,
      ledgerTransferId: read.head.transferId,
      rewardsEpoch,
      readAt: read.readAt,
    });
    if (options.actorId !== undefined) {
      await recordAudit(tx, {
        actorId: options.actorId,
        action: 'transparency.snapshot',
        targetType: 'proof_snapshot',
        targetId: id,
        after: { epoch: read.epoch, users: built.users, leaf_count: built.leafCount, root: toHex(built.root.hash), sums: built.root.sums },
        at: deps.now(),
      });
    }
    return true;
  });
  if (!written) return { status: 'already' };
  await recordCovers(deps, id, totals);
  return { status: 'taken', snapshotId: id };
}

/** The reserves at the chain's block and each asset's cover; without reserves the snapshot is taken out again (the job retries). */
async function recordCovers(deps: AppDeps, id: number, liabilities: bigint[]): Promise<void> {
  let captured: Awaited<ReturnType<typeof captureReserves>>;
  try {
    captured = await captureReserves(deps, id);
  } catch (error) {
    await deleteSnapshot(deps.db, id);
    throw error;
  }
  await writeCovers(
    deps.db,
    id,
    captured.blockNumber,
    liabilityDims.map((asset, d) => ({ asset, reserves: captured.reserves[asset], liabilities: liabilities[d]! })),
  );
}

async function refuseTooSoon(db: Db | Tx, now: Date): Promise<void> {
  const last = await lastSnapshotAt(db);
  if (last && now.getTime() - last.getTime() < operatorSnapshotIntervalMs) throw new AppError('SNAPSHOT_TOO_SOON');
}

/**
 * Every user's liabilities in one repeatable-read, read-only transaction, with the journal's head and
 * the last settled epoch of that same instant. 'posting' while an epoch's payouts sit in the settlement
 * accounts (owed to users but in no user's figures yet).
 */
async function readBooks(deps: AppDeps): Promise<BooksRead | 'posting'> {
  return deps.db.transaction(
    async (tx) => {
      const head = await ledgerHeadIn(tx);
      const takenAt = deps.now();
      const readAt = await databaseNow(tx);
      const settlement = await systemBalancesOf(tx, ['settlement']);
      if ((await postingEpoch(tx)) !== null || settlement.some((a) => BigInt(a.balance) !== 0n)) return 'posting';
      const epoch = await lastSettledEpoch(tx);
      const sums = new UserSums(liabilityDims.length);
      for (const r of await userLiabilitiesIn(tx)) {
        sums.add(Number(r.user_id), 0, BigInt(r.nadi));
        sums.add(Number(r.user_id), 1, BigInt(r.usdt));
      }
      const owed = { pledged: await pledgedByUserIn(tx), interest: await interestClaimableByUserIn(tx), vesting: await vestingByUserIn(tx) };
      const held = new Map((await systemBalancesOf(tx, Object.values(owedKinds))).filter((a) => a.asset === 'NADI').map((a) => [a.kind, BigInt(a.balance)]));
      for (const [source, rows] of Object.entries(owed) as [keyof typeof owedKinds, { user_id: number; amount: string }[]][]) {
        // Each source must add up to what its system account holds (the ledger audit's check, asserted here).
        const total = rows.reduce((s, r) => s + BigInt(r.amount), 0n);
        if (total !== (held.get(owedKinds[source]) ?? 0n))
          throw new Error(`the ${owedKinds[source]} account holds ${held.get(owedKinds[source]) ?? 0n}, but its users are owed ${total}`);
        sums.addRows(0, rows);
      }
      return { head, epoch, takenAt, readAt, sums };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
