// The environment every bench that runs the app in production mode starts from: APP_ENV production
// (production's abuse limits, sessions and logging), placeholder chain addresses (no chain is reached)
// and the local chain's public development keys. Each bench adds what it varies (envelope, proxy,
// Redis, session lifetime).
import { hardhatDevPrivateKeys } from '@nadi/chain/demo-accounts';
import { devDepositXpub } from '@nadi/chain/hd';

export function productionBenchEnv(databaseUrl: string): Record<string, string> {
  return {
    APP_ENV: 'production',
    DATABASE_URL: databaseUrl,
    PUBLIC_URL: 'http://127.0.0.1:8080',
    RPC_URL: 'http://127.0.0.1:9',
    CHAIN_ID: '56',
    NADI_ADDRESS: `0x${'1'.repeat(40)}`,
    USDT_ADDRESS: `0x${'2'.repeat(40)}`,
    PAYMENT_GATEWAY_ADDRESS: `0x${'3'.repeat(40)}`,
    SIWE_DOMAIN: '127.0.0.1:8080',
    ROOT_ADDRESS: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    ROOT_INVITE_CODE: 'NADI2026',
    NODE_DEADLINE: '2099-01-01T00:00:00Z',
    DEPOSIT_XPUB: devDepositXpub(),
    HOT_WALLET_PRIVATE_KEY: hardhatDevPrivateKeys[0]!,
    OPERATOR_ADDRESSES: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  };
}
