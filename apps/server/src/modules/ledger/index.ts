// The ledger's public surface: the one place that builds and posts money flows. Every module that
// moves money imports from here (docs/ledger.md).
export { accountKey, flowJson, postFlow, runFlow } from './ledger.ts';
export type { AccountRef, FlowContext, FlowJson, FlowOutcome, FlowRequest, Leg, Part } from './ledger.ts';
export { burn, fee, freeze, reward, settle, systemAccount, transfer, unfreeze, userAccount } from './legs.ts';
export { availableAfterFlow, availableOfUsers, createUserAccounts, flowPosted, flowLegs, lockAvailable, readAvailable, type PostedLeg } from './repo.ts';
export { auditLedger, auditLedgerIn, poolKinds, type AuditReport } from './audit.ts';
export { assertNotFrozen, isFrozen, spendsOwnBalance } from './frozen.ts';
export { assetTotals, feesByDay, systemAccountBalance, systemAccountExists, systemBalancesWithOutflow, userBalances, userJournal } from './console-repo.ts';
export { listRecords, listTransferFlows, readUserAccounts, recordTotals, type RecordFilter, type RecordRow, type UserAccount } from './records-repo.ts';
export {
  headWaitMs,
  ledgerHeadIn,
  ledgerHeadMissed,
  liabilityAccountKinds,
  systemBalancesOf,
  systemOutflowOfFlows,
  userBalancesAt,
  userLiabilitiesIn,
  userSystemFlowsAt,
  type LedgerHead,
} from './transparency-repo.ts';
