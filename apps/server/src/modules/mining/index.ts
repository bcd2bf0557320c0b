// The mining module's public surface (docs/economy.md): parameters in force, the epoch clock,
// power changes, the reference price, the trial miner, the user API's plugin, the fulfilment of
// destroy orders paid on chain (the payment watcher's), and the settlement job.
export {
  paramsAt,
  isTunableParam,
  tunableParams,
  storeDefaults,
  nodeDefaults,
  type EconomyParams,
  type NodeParams,
  type StoreParams,
  type TunableParam,
} from './params.ts';
export { miningNow, onlineHeartbeats, type MiningNow } from './service.ts';
export { epochClock, miningGenesis, genesisSettingKey, type EpochClock } from './clock.ts';
export { changePower, type PowerChange } from './power.ts';
export { quoteReferencePrice, referencePrice, referencePriceSettingKey, referenceStepMs, type ReferencePrice } from './reference-price.ts';
export { grantTrial, grantTrialsToExistingUsers, type MiningDeps } from './trial.ts';
export { miningModule } from './routes.ts';
export { economyModule } from './economy-routes.ts';
export { applyEconomyParam } from './economy-params.ts';
export { fulfilDestroyOrder } from './destroy.ts';
export {
  endingTranches,
  lastSettledEpoch,
  settleDueEpochs,
  settleEpoch,
  SettlementError,
  uptimeBeatsNeeded,
  type EpochSettlement,
  type NodeSettlement,
  type PledgeSettlement,
  type SettleDeps,
  type SettleOutcome,
  type TeamSettlement,
} from './settlement/settle.ts';
export { settlementIntervalMs, startSettlementJob, type SettlementJob, type SettlementJobOptions } from './settlement/job.ts';
export { miningEpochFigures, miningEpochPage, recentMiningEpochs, userMiners } from './console-repo.ts';
export {
  endPledgeMiner,
  insertDeviceMiner,
  insertNodeMiner,
  insertPledgeMiner,
  minerBasePowers,
  startDeviceMiner,
  type NewDeviceMiner,
  type NewPledgeMiner,
} from './other-miners.ts';
export {
  miningIncomeOfEpoch,
  postingEpoch,
  settledEpochEmissions,
  settledEpochNumbers,
  userMiningIncomeOfEpochs,
  vestingByUserIn,
} from './transparency-repo.ts';
