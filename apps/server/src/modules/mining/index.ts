// The mining module's public surface (docs/economy.md): parameters in force, the epoch clock,
// power changes, and (as they land) the user API, the settlement job and the device API.
export { paramsAt, isTunableParam, tunableParams, type TunableParam } from './params.ts';
export { epochClock, miningGenesis, genesisSettingKey, type EpochClock } from './clock.ts';
export { changePower, type PowerChange } from './power.ts';
export {
  endingTranches,
  lastSettledEpoch,
  settleDueEpochs,
  settleEpoch,
  SettlementError,
  uptimeBeatsNeeded,
  type EpochSettlement,
  type SettleDeps,
  type SettleOutcome,
} from './settlement/settle.ts';
export { settlementIntervalMs, startSettlementJob, type SettlementJob, type SettlementJobOptions } from './settlement/job.ts';
