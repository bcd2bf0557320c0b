// The onchain module's public surface (deposits, withdrawals and payments are its parts, not
// modules of their own): the three plugins, the chain workers the server starts, the chain
// context tests build, and payment orders other modules sell through (fulfil.ts delivers them).
export { rechargeModule } from './deposits/routes.ts';
export { withdrawModule } from './withdrawals/routes.ts';
export { paymentModule } from './payments/routes.ts';
export { startChainWorkers } from './workers.ts';
export { chainContext, type ChainContext } from './chain.ts';
export { createPaymentOrder, getOrder as getPaymentOrder, type NewOrder } from './payments/service.ts';
export type { PaymentOrderRow } from './payments/repo.ts';
export { creditPaymentToFund } from './payments/refund.ts';
/** One round of the payment watcher (tests of what other modules sell on chain drive it by hand). */
export { scanPaymentsOnce } from './payments/watcher.ts';
export { executeWithdrawalApproval } from './withdrawals/service.ts';
/**
 * The hot wallet's transaction discipline, shared with the proof publisher (modules/transparency),
 * which sends from the same wallet: one nonce counter under a row lock, fees, the local chain's gap.
 */
export { feesOf, fillLocalNonceGap, hotWalletOf, isKnownToNode, receiptOf, type Fees, type HotWallet } from './withdrawals/sender.ts';
export { takeNonce } from './withdrawals/repo.ts';
export { confirmationsAt } from './scan.ts';
export { depositsByDay, pendingWithdrawalCount, withdrawalQueue, withdrawalsByDay } from './console-repo.ts';
/** A deposit's ledger key and its credited mark (the attack tests credit a deposit by hand). */
export { markCredited } from './deposits/repo.ts';
export { depositFlowKey } from './deposits/watcher.ts';
