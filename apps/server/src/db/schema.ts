// Every table of the database, gathered from the modules' own schema.ts files (each module owns
// its tables: docs/architecture.md "Table ownership"). db/client.ts hands this to drizzle as one
// schema object; drizzle-kit reads the module files themselves (drizzle.config.ts). Module code
// imports its own schema.ts, never this file.
export * from '../modules/auth/schema.ts';
export * from '../modules/config/schema.ts';
export * from '../modules/device/schema.ts';
export * from '../modules/ledger/schema.ts';
export * from '../modules/market/schema.ts';
export * from '../modules/mining/schema.ts';
export * from '../modules/node/schema.ts';
export * from '../modules/notice/schema.ts';
export * from '../modules/onchain/schema.ts';
export * from '../modules/operator/schema.ts';
export * from '../modules/pledge/schema.ts';
export * from '../modules/sign/schema.ts';
export * from '../modules/store/schema.ts';
export * from '../modules/team/schema.ts';
export * from '../modules/transparency/schema.ts';
export * from '../modules/user/schema.ts';
export * from '../modules/wallet/schema.ts';
