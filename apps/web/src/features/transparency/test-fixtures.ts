// Test data for the transparency screen's checks: real Merkle sum trees (packages/proof) with the
// API's shapes around them, and a chain that answers JSON-RPC as a node would, through viem's own
// encoding of the ProofPublisher's ABI. Used by the *.test.ts files beside it only.
import { decodeFunctionData, encodeAbiParameters, encodeEventTopics, encodeFunctionResult, type Hex } from 'viem';
import { proofOf } from '@nadi/proof/proof';
import { buildTree, leafNode, nodeBytes, splitAmounts, treeRoot, toHex, userKey, writeNode, type SumNode } from '@nadi/proof/tree';
import type { Publication, SnapshotInfo, RewardsInfo } from '@nadi/api/transparency';
import type { BalanceProof } from './api/get-balance-proof.ts';
import type { IncomeProof } from './api/get-income-proof.ts';
import { chainReader } from './chain-reader.ts';
import type { ChainReader } from './published-root.ts';
import { proofPublisherAbi } from '@nadi/chain/artifacts';

export const chainId = 31337;
export const contractAddress = '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707';
export const me = 7;
const unit = 10n ** 18n;

function saltOf(userId: number): Uint8Array {
  return new Uint8Array(32).fill(userId);
}

/**
 * A tree over users 1..9 in `scope`, each owed (u NADI, 2u USDT) or for rewards (u, 0, u, 1) NADI
 * by kind, split into two parts; `tamper` may change the leaves' amounts before the tree is built.
 */
export type Tamper = (userId: number, part: number, sums: bigint[]) => bigint[];

export function treeFixture(scope: string, dims: readonly string[], options: { tamper?: Tamper } = {}) {
  const leaves: SumNode[] = [];
  const indexes = new Map<number, number[]>();
  for (let u = 1; u <= 9; u += 1) {
    const owed = dims.length === 2 ? [BigInt(u) * unit, BigInt(2 * u) * unit] : [BigInt(u) * unit, 0n, BigInt(u) * unit, unit];
    const parts = splitAmounts(owed, 2, (bound) => bound / 3n);
    indexes.set(
      u,
      parts.map((sums, p) => {
        leaves.push(leafNode(userKey(saltOf(u), scope, u), p, options.tamper?.(u, p, sums) ?? sums));
        return leaves.length - 1;
      }),
    );
  }
  const flat = new Uint8Array(leaves.length * nodeBytes(dims.length));
  leaves.forEach((node, i) => writeNode(flat, i, node));
  const tree = buildTree(flat, dims.length);
  const proof = proofOf(tree, { scope, dims: [...dims], userId: me, salt: saltOf(me), indexes: indexes.get(me)! });
  return { tree, proof, root: toHex(treeRoot(tree).hash) };
}

export const myBalance = [BigInt(me) * unit, BigInt(2 * me) * unit].map(String);
export const myIncome = [BigInt(me) * unit, 0n, BigInt(me) * unit, unit].map(String);

export function publication(txHash: string | null, state: Publication['state'] = txHash ? 'published' : 'unpublished'): Publication {
  return { state, chain_id: chainId, contract: contractAddress, tx_hash: txHash, block_number: txHash ? '42' : null, published_at: null };
}

export function snapshotInfo(id: number, root: string, pub: Publication): SnapshotInfo {
  return {
    id,
    epoch: 3,
    trigger: 'epoch',
    taken_at: '2026-11-28T10:00:00.000Z',
    block_number: '40',
    users: 9,
    leaf_count: 18,
    liabilities_root: root,
    liabilities_sums: ['45000000000000000000', '90000000000000000000'],
    rewards_root: null,
    cover: [],
    publication: pub,
  };
}

/** The balance proof the API would answer for snapshot `id`, with `expected` the user's own figures. */
export function balanceFixture(id: number, options: { txHash?: string | null; expected?: string[]; tamper?: Tamper } = {}) {
  const { proof, root } = treeFixture(`snapshot:${id}`, ['NADI', 'USDT'], { tamper: options.tamper });
  const data: BalanceProof = { snapshot: snapshotInfo(id, root, publication(options.txHash ?? null)), proof, expected: options.expected ?? myBalance };
  return { data, root };
}

export function rewardsInfo(epoch: number, root: string, pub: Publication): RewardsInfo {
  return { epoch, root, sums: [], leaf_count: 18, paid: {}, paid_total: '0', scheduled: '0', publication: pub };
}

export function incomeFixture(epoch: number, options: { txHash?: string | null; expected?: string[] } = {}) {
  const { proof, root } = treeFixture(`rewards:${epoch}`, ['mining', 'savings', 'node', 'team']);
  const data: IncomeProof = { rewards: rewardsInfo(epoch, root, publication(options.txHash ?? null)), proof, expected: options.expected ?? myIncome };
  return { data, root };
}

/** What the contract holds for one snapshot (the Publication struct), and the transaction that published it. */
export interface ChainRecord {
  snapshotId: number;
  epoch: number | null;
  liabilitiesRoot: string;
  rewardsRoot: string | null;
  txHash: string;
}

const zeroRoot = `0x${'0'.repeat(64)}` as Hex;
const noEpoch = (1n << 256n) - 1n;

function publishedLog(record: ChainRecord) {
  const topics = encodeEventTopics({
    abi: proofPublisherAbi,
    eventName: 'Published',
    args: { snapshotId: BigInt(record.snapshotId), epoch: record.epoch === null ? noEpoch : BigInt(record.epoch) },
  });
  const data = encodeAbiParameters(
    [{ type: 'uint256' }, { type: 'bytes32' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'bytes32' }, { type: 'uint256' }],
    [40n, record.liabilitiesRoot as Hex, 1n, 2n, (record.rewardsRoot ?? zeroRoot) as Hex, 3n],
  );
  return {
    address: contractAddress.toLowerCase(),
    topics,
    data,
    blockNumber: '0x2a',
    transactionHash: record.txHash,
    logIndex: '0x0',
    transactionIndex: '0x0',
    blockHash: `0x${'b'.repeat(64)}`,
    removed: false,
  };
}

/**
 * A chain that answers the three calls the check makes, as a node's JSON-RPC would: its id, the
 * contract's `publication(id)` through eth_call and transaction receipts (null for an unknown one).
 * `fail` makes every call throw, as an unreachable node does.
 */
export function fakeChain(records: ChainRecord[], options: { chainId?: number; fail?: boolean } = {}): { reader: ChainReader; calls: string[] } {
  const calls: string[] = [];
  const rpc = async (method: string, params: unknown[]) => {
    calls.push(method);
    if (options.fail) throw new Error('connection refused');
    if (method === 'eth_chainId') return `0x${(options.chainId ?? chainId).toString(16)}`;
    if (method === 'eth_call') {
      const [call] = params as [{ to: string; data: Hex }];
      if (call.to.toLowerCase() !== contractAddress.toLowerCase()) return '0x';
      const { args } = decodeFunctionData({ abi: proofPublisherAbi, data: call.data });
      const record = records.find((r) => BigInt(r.snapshotId) === args[0]);
      return encodeFunctionResult({
        abi: proofPublisherAbi,
        functionName: 'publication',
        result: {
          epoch: record?.epoch === null || !record ? noEpoch : BigInt(record.epoch),
          blockNumber: record ? 40n : 0n,
          liabilitiesRoot: (record?.liabilitiesRoot ?? zeroRoot) as Hex,
          liabilitiesNadi: 0n,
          liabilitiesUsdt: 0n,
          rewardsRoot: (record?.rewardsRoot ?? zeroRoot) as Hex,
          rewardsTotal: 0n,
          publishedBlock: record ? 42n : 0n,
          publishedAt: record ? 1_800_000_000n : 0n,
        },
      });
    }
    if (method === 'eth_getTransactionReceipt') {
      const [hash] = params as [string];
      const record = records.find((r) => r.txHash === hash);
      if (!record) return null;
      return {
        transactionHash: hash,
        transactionIndex: '0x0',
        blockHash: `0x${'b'.repeat(64)}`,
        blockNumber: '0x2a',
        from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
        to: contractAddress.toLowerCase(),
        cumulativeGasUsed: '0x1',
        gasUsed: '0x1',
        effectiveGasPrice: '0x1',
        contractAddress: null,
        logs: [publishedLog(record)],
        logsBloom: `0x${'0'.repeat(512)}`,
        status: '0x1',
        type: '0x2',
      };
    }
    throw new Error(`unexpected ${method}`);
  };
  return { reader: chainReader(rpc), calls };
}
