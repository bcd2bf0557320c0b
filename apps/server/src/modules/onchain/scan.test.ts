import { expect, it } from 'vitest';
import { confirmationsAt, cursorRewindBlocks, rewindTarget } from './scan.ts';

const production = { name: 'deposits', startBlock: null, isRewindToStart: false } as const;

it('rewinds a lost cursor by a bounded number of blocks below the lower of cursor and head', () => {
  expect(rewindTarget(production, 50_000n, 60_000n)).toBe(50_000n - cursorRewindBlocks);
  // The chain got shorter than the cursor: count back from the head.
  expect(rewindTarget(production, 50_000n, 40_000n)).toBe(40_000n - cursorRewindBlocks);
  expect(rewindTarget(production, 300n, 400n)).toBe(0n);
  expect(rewindTarget({ ...production, startBlock: 45_000n }, 45_500n, 46_000n)).toBe(45_000n);
});

it('rewinds to the start block in development, where the chain is short and may restart', () => {
  expect(rewindTarget({ ...production, startBlock: 0n, isRewindToStart: true }, 5_000n, 30n)).toBe(0n);
});

it('counts the log’s own block as its first confirmation', () => {
  expect(confirmationsAt(10n, 10n)).toBe(1);
  expect(confirmationsAt(12n, 10n)).toBe(3);
  expect(confirmationsAt(9n, 10n)).toBe(0);
});
