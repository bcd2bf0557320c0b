// The node module's public surface (docs/nodes-and-savings.md): the user and operator API, and what
// other modules call: the fulfilment of nodes paid on chain (the payment watcher's) and the node job.
export { nodeModule } from './routes.ts';
export { fulfilNodeOrder } from './deliver.ts';
export { nodeJobIntervalMs, runNodeRound, startNodeJob, type NodeJob, type NodeRound } from './job.ts';
export { nodeEpochsPaid, nodeSalesByTier, userNodeHoldings } from './console-repo.ts';
export { highestNodeLevel } from './tier-repo.ts';
export { holdsNode } from './holding-repo.ts';
export { nodeIncomeOfEpoch, userNodeIncomeOfEpoch } from './transparency-repo.ts';
