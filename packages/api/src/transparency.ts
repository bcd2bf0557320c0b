// The transparency contract (docs/transparency.md): proofs of reserves and of rewards. Public reads
// need no session: the supply, emission against the schedule, pool balances, reserves against
// liabilities and the snapshots with their on-chain publication. A signed-in user fetches their own
// proofs and checks them in the browser (packages/proof). Amounts are exact decimal strings in whole
// tokens (amountText); the trees' sums are base-unit integers (18 decimals) as decimal strings.
import { z } from 'zod/mini';
import { envelope, idQuery, pageQuery, paged, queryInt } from './common.ts';
import { route } from './route.ts';
import { amountText, assets } from './wallet.ts';

/** The liabilities tree's dimensions, in order: one sum per asset. */
export const liabilityDims = assets;
/** The rewards tree's dimensions, in order: one NADI sum per kind of income. */
export const rewardKinds = ['mining', 'savings', 'node', 'team'] as const;
export type RewardKind = (typeof rewardKinds)[number];
/** What a user's liabilities leaf adds up (docs/transparency.md): each is in its sums. */
export const liabilitySources = ['fund', 'trade', 'pledged', 'savings_interest', 'vesting'] as const;

export const snapshotTriggers = ['epoch', 'operator'] as const;
export const publicationStates = ['unpublished', 'pending', 'published', 'failed'] as const;
export type PublicationState = (typeof publicationStates)[number];

export const publication = z.object({
  state: z.enum(publicationStates),
  chain_id: z.int(),
  contract: z.nullable(z.string()),
  tx_hash: z.nullable(z.string()),
  block_number: z.nullable(z.string()),
  published_at: z.nullable(z.string()),
});
export type Publication = z.infer<typeof publication>;

/** One reserve address at a snapshot: what it held on chain and the proof that the platform controls it. */
export const reserveAddress = z.object({
  address: z.string(),
  /** hot_wallet, payment_gateway, treasury or cold. */
  role: z.enum(['hot_wallet', 'payment_gateway', 'treasury', 'cold']),
  label: z.string(),
  /** The message signed (it names the address and the platform) and its EIP-191 signature. */
  message: z.string(),
  signature: z.string(),
  /** The signer: the address itself, or for a contract (the gateway) its owner. */
  signer: z.string(),
  balances: z.object({ NADI: amountText, USDT: amountText }),
});
export type ReserveAddress = z.infer<typeof reserveAddress>;

export const assetCover = z.object({
  asset: z.enum(assets),
  reserves: amountText,
  liabilities: amountText,
  /** reserves ÷ liabilities with 4 decimals, null when nothing is owed. */
  ratio: z.nullable(z.string()),
});

export const snapshotInfo = z.object({
  id: z.int(),
  /** The epoch whose end it was taken at (operator snapshots: the last ended epoch). */
  epoch: z.nullable(z.int()),
  trigger: z.enum(snapshotTriggers),
  taken_at: z.string(),
  /** The chain block the reserves were read at. */
  block_number: z.string(),
  users: z.int(),
  leaf_count: z.int(),
  liabilities_root: z.string(),
  /** Base-unit sums of the root, in liabilityDims order. */
  liabilities_sums: z.array(z.string()),
  /** The rewards root of `epoch`, when the snapshot carries one. */
  rewards_root: z.nullable(z.string()),
  cover: z.array(assetCover),
  publication,
});
export type SnapshotInfo = z.infer<typeof snapshotInfo>;

export const snapshotDetail = z.extend(snapshotInfo, { reserves: z.array(reserveAddress) });
export type SnapshotDetail = z.infer<typeof snapshotDetail>;

export const rewardsInfo = z.object({
  epoch: z.int(),
  root: z.string(),
  /** Base-unit sums of the root, in rewardKinds order. */
  sums: z.array(z.string()),
  leaf_count: z.int(),
  /** What the pools paid for the epoch by kind (whole NADI), from the ledger. */
  paid: z.record(z.string(), amountText),
  /** Total paid and the emission schedule's amount for the epoch (packages/economy). */
  paid_total: amountText,
  scheduled: amountText,
  publication,
});
export type RewardsInfo = z.infer<typeof rewardsInfo>;

export const emissionPoint = z.object({ epoch: z.int(), ended_at: z.string(), emitted: amountText, scheduled: amountText });
export const coverPoint = z.object({
  snapshot_id: z.int(),
  taken_at: z.string(),
  asset: z.enum(assets),
  reserves: amountText,
  liabilities: amountText,
});

export const transparencySummary = z.object({
  supply: z.object({ total: amountText, burned: amountText, circulating: amountText }),
  /** The recent settled epochs, oldest first. */
  emission: z.array(emissionPoint),
  pools: z.array(z.object({ kind: z.string(), asset: z.enum(assets), balance: amountText })),
  /** Reserves and liabilities per snapshot, oldest first. */
  cover_history: z.array(coverPoint),
  latest: z.nullable(snapshotDetail),
  /** Where roots are published: read the snapshot's roots there. */
  contract: z.nullable(z.object({ chain_id: z.int(), address: z.string() })),
});
export type TransparencySummary = z.infer<typeof transparencySummary>;

const nodeJson = z.object({ hash: z.string(), sums: z.array(z.string()) });
export const proofJson = z.object({
  scope: z.string(),
  dims: z.array(z.string()),
  user_id: z.int(),
  salt: z.string(),
  parts: z.array(
    z.object({
      index: z.int(),
      part: z.int(),
      sums: z.array(z.string()),
      path: z.array(z.object({ side: z.enum(['left', 'right']), hash: z.string(), sums: z.array(z.string()) })),
    }),
  ),
  root: nodeJson,
  leaf_count: z.int(),
});

/**
 * A user's proof and what to check it against: `expected` is the user's own figure at that point,
 * computed from their ledger history (balances) or income records (rewards), not from the tree.
 */
export const balanceProof = z.object({ snapshot: snapshotInfo, proof: proofJson, expected: z.array(z.string()) });
export const incomeProof = z.object({ rewards: rewardsInfo, proof: proofJson, expected: z.array(z.string()) });

export const snapshotQuery = z.object({ snapshot_id: z.optional(queryInt(1, 2 ** 31 - 1)) });
export const epochQuery = z.object({ epoch: queryInt(0, 2 ** 31 - 1) });
export const treeQuery = z.object({ scope: z.string().check(z.regex(/^(snapshot|rewards):[0-9]{1,10}$/)) });

export const registerReserveBody = z.object({
  address: z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/)),
  label: z.string().check(z.trim(), z.minLength(1), z.maxLength(60)),
  message: z.string().check(z.minLength(1), z.maxLength(500)),
  signature: z.string().check(z.regex(/^0x[0-9a-fA-F]{130}$/)),
});

/**
 * The tree download (the verifier's input): `GET /api/v1/transparency/tree.bin?scope=…` answers the
 * leaf level as raw bytes, each leaf 32 bytes of hash then one signed 128-bit big-endian sum per
 * dimension (packages/proof/src/tree.ts). Outside the JSON contract: public, plain, cacheable.
 */
export const treeDownloadPath = '/api/v1/transparency/tree.bin';

export const transparencyRoutes = {
  summary: route({
    method: 'GET',
    path: '/api/v1/transparency/summary',
    input: undefined,
    response: envelope(transparencySummary),
    auth: false,
    summary: 'Public: supply, emission against the schedule, pools, reserves against liabilities, the latest snapshot',
  }),
  snapshots: route({
    method: 'GET',
    path: '/api/v1/transparency/snapshots',
    input: pageQuery,
    response: envelope(paged(snapshotInfo)),
    auth: false,
    summary: 'Public: the liabilities snapshots, newest first',
  }),
  snapshot: route({
    method: 'GET',
    path: '/api/v1/transparency/snapshot',
    input: idQuery,
    response: envelope(snapshotDetail),
    auth: false,
    summary: 'Public: one snapshot with its reserve addresses, balances and signatures',
  }),
  tree: route({
    method: 'GET',
    path: '/api/v1/transparency/tree',
    input: treeQuery,
    response: envelope(z.object({ scope: z.string(), dims: z.array(z.string()), leaf_count: z.int(), root: nodeJson, download: z.string() })),
    auth: false,
    summary: 'Public: a tree’s dimensions, size and root, and where to download its leaves',
  }),
  rewards: route({
    method: 'GET',
    path: '/api/v1/transparency/rewards',
    input: epochQuery,
    response: envelope(rewardsInfo),
    auth: false,
    summary: 'Public: an epoch’s rewards root, what the pools paid and the schedule',
  }),
  balanceProof: route({
    method: 'GET',
    path: '/api/v1/transparency/proof/balance',
    input: snapshotQuery,
    response: envelope(balanceProof),
    auth: true,
    summary: 'The caller’s liabilities proof in a snapshot (the latest by default)',
  }),
  incomeProof: route({
    method: 'GET',
    path: '/api/v1/transparency/proof/income',
    input: epochQuery,
    response: envelope(incomeProof),
    auth: true,
    summary: 'The caller’s income proof for an epoch',
  }),
  operatorSnapshot: route({
    method: 'POST',
    path: '/api/v1/operator/transparency/snapshot',
    input: z.optional(z.object({})),
    response: envelope(snapshotInfo),
    auth: true,
    role: 'operator',
    summary: 'Operators: take a liabilities snapshot now',
  }),
  operatorPublish: route({
    method: 'POST',
    path: '/api/v1/operator/transparency/publish',
    input: idQuery,
    response: envelope(snapshotInfo),
    auth: true,
    role: 'operator',
    summary: 'Operators: publish a snapshot’s roots and totals on chain',
  }),
  operatorReserves: route({
    method: 'POST',
    path: '/api/v1/operator/transparency/reserve',
    input: registerReserveBody,
    response: envelope(z.object({ address: z.string(), label: z.string() })),
    auth: true,
    role: 'admin',
    summary: 'Admins: register a cold reserve address with its signed ownership message',
  }),
} as const;

/** Page size of the snapshots list the screen asks for. */
export const snapshotsPageSize = 20;
/** Epochs of emission history the summary answers. */
export const emissionHistoryEpochs = 60;
