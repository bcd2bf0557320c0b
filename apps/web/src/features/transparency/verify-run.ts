import { verifyProof, type ProofJson, type VerifyFailure, type VerifyResult } from '@nadi/proof/proof';
import type { Publication } from '@nadi/api/transparency';
import type { BalanceProof } from './api/get-balance-proof.ts';
import type { IncomeProof } from './api/get-income-proof.ts';
import { ChainReadError, readPublication, snapshotOfTransaction, type ChainReader, type PublishedRoots } from './published-root.ts';

// "Verify my balance" and "Verify my income for epoch n" (docs/transparency.md): the proof the
// server gave, the root the chain holds and the check itself, all in the browser. Pure but for the
// chain reader it is handed, so every outcome is tested with a real tree and a fake chain.

export type ProofTarget = { kind: 'balance'; data: BalanceProof } | { kind: 'income'; data: IncomeProof };

/** A failure of the check (packages/proof), or the chain that could not be asked. */
export type VerifyOutcomeFailure = VerifyFailure | 'chain_unreachable' | 'wrong_chain';

export interface VerifyOutcome {
  ok: boolean;
  failure: VerifyOutcomeFailure | null;
  result: VerifyResult;
  /** What the chain holds for the snapshot the root was published with; null when nothing (or not asked). */
  onChain: PublishedRoots | null;
  /** The publishing transaction, when its receipt shows it published this snapshot. */
  txHash: string | null;
  /** Set when the chain could not be asked: the publication step then says so instead of "not published". */
  chainError: 'chain_unreachable' | 'wrong_chain' | null;
}

export interface VerifyDeps {
  /** The signed-in user's id: the proof must be theirs, and their key is made from it. */
  userId: number;
  /** Where roots are published (the summary's `contract`); null when none is configured. */
  contract: { chain_id: number; address: string } | null;
  /** Asked only when there is a contract. */
  reader: () => Promise<ChainReader>;
}

interface ChainFinding {
  onChain: PublishedRoots | null;
  txHash: string | null;
  publishedRoot: string | null;
}

/** The snapshot a proof's root was published with: its own id, or for rewards the one its transaction names. */
async function publishedSnapshot(target: ProofTarget, reader: ChainReader, contract: { chainId: number; address: string }, publication: Publication) {
  const txSnapshot = publication.tx_hash ? await snapshotOfTransaction(reader, contract, publication.tx_hash) : null;
  const snapshotId = target.kind === 'balance' ? target.data.snapshot.id : txSnapshot;
  return { snapshotId, isTxConfirmed: txSnapshot !== null && txSnapshot === snapshotId };
}

async function readChain(target: ProofTarget, deps: VerifyDeps, publication: Publication): Promise<ChainFinding> {
  const none: ChainFinding = { onChain: null, txHash: null, publishedRoot: null };
  if (!deps.contract) return none;
  const contract = { chainId: deps.contract.chain_id, address: deps.contract.address };
  const reader = await deps.reader();
  const { snapshotId, isTxConfirmed } = await publishedSnapshot(target, reader, contract, publication);
  if (snapshotId === null) return none;
  const onChain = await readPublication(reader, contract, snapshotId);
  if (!onChain) return none;
  const txHash = isTxConfirmed ? publication.tx_hash : null;
  if (target.kind === 'balance') return { onChain, txHash, publishedRoot: onChain.liabilitiesRoot };
  // A rewards root counts only as the one of this epoch.
  const isThisEpoch = onChain.epoch === target.data.rewards.epoch;
  return { onChain, txHash, publishedRoot: isThisEpoch ? onChain.rewardsRoot : null };
}

function proofOfTarget(target: ProofTarget): { proof: ProofJson; expected: string[]; publication: Publication } {
  return target.kind === 'balance'
    ? { proof: target.data.proof, expected: target.data.expected, publication: target.data.snapshot.publication }
    : { proof: target.data.proof, expected: target.data.expected, publication: target.data.rewards.publication };
}

/** Checks a proof against the user's own figures and the root on chain. */
export async function runVerification(target: ProofTarget, deps: VerifyDeps): Promise<VerifyOutcome> {
  const { proof, expected, publication } = proofOfTarget(target);
  let finding: ChainFinding = { onChain: null, txHash: null, publishedRoot: null };
  let chainError: VerifyOutcome['chainError'] = null;
  try {
    finding = await readChain(target, deps, publication);
  } catch (error) {
    if (!(error instanceof ChainReadError)) throw error;
    chainError = error.reason === 'wrong_chain' ? 'wrong_chain' : 'chain_unreachable';
  }
  const result = verifyProof(proof, { userId: deps.userId, expectedSums: expected.map((s) => BigInt(s)), publishedRoot: finding.publishedRoot });
  // A chain that did not answer says nothing about publication: that, not "not published", is the finding.
  const failure = chainError !== null && (result.failure === 'not_published' || result.failure === null) ? chainError : result.failure;
  return { ok: failure === null, failure, result, onChain: finding.onChain, txHash: finding.txHash, chainError };
}
