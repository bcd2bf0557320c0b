// The transparency module's public surface (docs/transparency.md): the API plugins (the public and
// proof routes; the operator routes that reach the chain), the job that makes each settled epoch's
// rewards tree and liabilities snapshot, the publication job, reserve capture, and the nonces the
// withdrawal sender's local gap filler must leave to pending publications.
export { transparencyModule } from './routes.ts';
export { transparencyOperatorModule } from './operator-routes.ts';
export { runTransparencyRound, startTransparencyJob, rewardsPerRound, type TransparencyJob, type TransparencyRound } from './job.ts';
export { takeSnapshot, operatorSnapshotIntervalMs, type SnapshotOutcome, type SnapshotTrigger } from './snapshot.ts';
export { buildRewards, poolsPaid, rewardSources, type RewardsOutcome } from './rewards.ts';
export { findSnapshot, latestSnapshot, type SnapshotRow } from './repo.ts';
export { startPublishJob, type PublishJob } from './publish.ts';
export { captureReserves } from './reserves.ts';
export { publicationNoncesInFlight } from './publish-repo.ts';
