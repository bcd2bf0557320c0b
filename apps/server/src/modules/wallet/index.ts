// The wallet's public surface: balances and their valuation, transfers between a user's accounts,
// exchange, the demo grant, and the module's Fastify plugin.
export { walletModule, type WalletModuleOptions } from './routes.ts';
export { availableOf, confirmQuote, createQuote, demoGrant, getAssets, grantDemoFunds, transferBetweenAccounts } from './service.ts';
export { nadiPrice, priceSettingKeys, type NadiPrice } from './price.ts';
