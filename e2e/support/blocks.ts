import { rpc } from './api.ts';

// The suite's chain pace, shared by the files that watch confirmations.

/** scripts/start.ts has the node mine a block every second besides automine. */
const startIntervalMiningMs = 1_000;

export async function mine(blocks: number): Promise<void> {
  await rpc('hardhat_mine', [`0x${blocks.toString(16)}`]);
}

/**
 * Runs `run` with the node mining only on transactions (and on `mine`), so a state with fewer
 * confirmations than required lasts long enough to be seen; the stack's pace comes back after.
 */
export async function withBlocksOnDemand(run: () => Promise<void>): Promise<void> {
  await rpc('evm_setIntervalMining', [0]);
  try {
    await run();
  } finally {
    await rpc('evm_setIntervalMining', [startIntervalMiningMs]);
  }
}
