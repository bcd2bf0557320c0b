// The onchain module's public surface (deposits, withdrawals and payments are its parts, not
// modules of their own): the three plugins, the chain workers the server starts, and the chain
// context tests build.
export { rechargeModule } from './deposits/routes.ts';
export { withdrawModule } from './withdrawals/routes.ts';
export { paymentModule } from './payments/routes.ts';
export { startChainWorkers } from './workers.ts';
export { chainContext, type ChainContext } from './chain.ts';
