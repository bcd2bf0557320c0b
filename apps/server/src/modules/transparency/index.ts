// The transparency module's public surface (docs/transparency.md): the API plugin, the job that makes
// each settled epoch's rewards tree and liabilities snapshot, and what the chain side calls.
export { transparencyModule } from './routes.ts';
export { runTransparencyRound, startTransparencyJob, rewardsPerRound, type TransparencyJob, type TransparencyRound } from './job.ts';
export { takeSnapshot, operatorSnapshotIntervalMs, type SnapshotOutcome, type SnapshotTrigger } from './snapshot.ts';
export { buildRewards, poolsPaid, rewardSources, type RewardsOutcome } from './rewards.ts';
export { findSnapshot, latestSnapshot, type SnapshotRow } from './repo.ts';
