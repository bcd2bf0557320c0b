// The stack bench:web measures, in a process of its own (started by web.ts, so the server never
// waits behind Lighthouse's work in the bench process): the local chain with the project's
// contracts, and the server serving the production build named by WEB_DIST, as `npm start` runs
// them (scripts/start.ts) but on free ports, a throw-away data folder and without the console or
// the demo devices, which no measured screen needs. The demo market stays on, so /trade shows a
// live book and candles as it does for a person. Prints one JSON line ({ url }) once it answers;
// SIGTERM stops everything.
import { deployLocalContracts } from '@nadi/chain/deploy';
import { startLocalChain } from '@nadi/chain/local-chain';
import { startServer } from '../../server/src/main.ts';

const webDist = process.env.WEB_DIST;
const dataDir = process.env.DATA_DIR;
if (!webDist || !dataDir) throw new Error('stack.ts needs WEB_DIST and DATA_DIR');

const chain = await startLocalChain();
let server: Awaited<ReturnType<typeof startServer>> | null = null;
const stop = async (code: number) => {
  await server?.stop().catch(() => {});
  await chain.stop().catch(() => {});
  process.exit(code);
};
process.once('SIGTERM', () => void stop(0));
process.once('SIGINT', () => void stop(0));
try {
  const contracts = await deployLocalContracts(chain.rpcUrl);
  server = await startServer({
    LOG_LEVEL: 'warn',
    ...process.env,
    APP_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    RPC_URL: chain.rpcUrl,
    CHAIN_ID: String(contracts.chainId),
    NADI_ADDRESS: contracts.nadi,
    USDT_ADDRESS: contracts.usdt,
    PAYMENT_GATEWAY_ADDRESS: contracts.paymentGateway,
    WEB_DIST: webDist,
  });
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
} catch (error) {
  console.error(error);
  await stop(1);
}
