// The transparency module's public surface (docs/transparency.md): the operator routes that reach
// the chain, the publication job, reserve capture (called while a snapshot is taken) and the nonces
// the withdrawal sender's local gap filler must leave to pending publications.
export { transparencyOperatorModule } from './operator-routes.ts';
export { startPublishJob, type PublishJob } from './publish.ts';
export { captureReserves } from './reserves.ts';
export { publicationNoncesInFlight } from './publish-repo.ts';
