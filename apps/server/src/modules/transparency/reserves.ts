// The platform's reserves at a snapshot (docs/transparency.md, "Reserves"). A STAND-IN: this version
// reads nothing and answers block 0 and zero reserves, so that snapshots, covers and their tests run
// without a chain. The reserves helper's version (the on-chain balances of the hot wallet, the payment
// gateway, the treasury and the registered cold addresses, with their signed ownership messages, at
// the snapshot's block) replaces this file with the same signature.
import type { AppDeps } from '../../deps.ts';

export async function captureReserves(deps: AppDeps, snapshotId: number): Promise<{ blockNumber: bigint; reserves: { NADI: bigint; USDT: bigint } }> {
  void deps;
  void snapshotId;
  return { blockNumber: 0n, reserves: { NADI: 0n, USDT: 0n } };
}
