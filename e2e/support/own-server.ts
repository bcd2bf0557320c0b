import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { Db } from '../../apps/server/src/db/client.ts';
import { startServer } from '../../apps/server/src/main.ts';
import { freePort } from './ports.ts';

// A server of a suite's own, for what the shared stack's 600 s epochs cannot show within a test (an
// epoch ending and settling): it shares the suite's local chain and built web app, and has its own
// embedded database, its own root invite code, short epochs and no chain workers or demo market.

export interface OwnServer {
  baseUrl: string;
  /**
   * The server's own database, for a test that must change what no API changes (the transparency
   * suite tampers a stored tree to see the phone catch it).
   */
  db: Db;
  stop(): Promise<void>;
}

export interface OwnServerOptions {
  rootCode: string;
  epochSeconds: number;
  heartbeatSeconds?: number;
  name: string;
  /**
   * A ProofPublisher of this server's own (deployProofPublisher), owned by the hot wallet (Hardhat
   * #0). Never the shared stack's: its snapshot ids restart with its database, and the contract
   * refuses an id another database published there. Without it the server publishes nothing.
   */
  proofPublisher?: string;
}

export async function startOwnServer(options: OwnServerOptions): Promise<OwnServer> {
  const config = (await (await fetch(`${inject('baseUrl')}/api/v1/common/config`)).json()) as {
    data: { chain: { nadi_address: string; usdt_address: string } };
  };
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), `nadi-e2e-${options.name}-`));
  const server = await startServer({
    APP_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    WEB_DIST: inject('webDist'),
    ADMIN_DIST: inject('adminDist'),
    RPC_URL: inject('rpcUrl'),
    CHAIN_ID: '31337',
    NADI_ADDRESS: config.data.chain.nadi_address,
    USDT_ADDRESS: config.data.chain.usdt_address,
    // Publications go from the hot wallet (Hardhat #0), as the stack's do, to a contract of its own.
    ...(options.proofPublisher ? { PROOF_PUBLISHER_ADDRESS: options.proofPublisher } : {}),
    ROOT_INVITE_CODE: options.rootCode,
    EPOCH_SECONDS: String(options.epochSeconds),
    HEARTBEAT_SECONDS: String(options.heartbeatSeconds ?? 1),
    DEMO_MARKET: 'off',
    CHAIN_WORKERS: 'off',
    LOG_LEVEL: 'warn',
    // The suite runs with the request envelope on as well as off (docs/envelope.md).
    ...(process.env.ENCRYPTION ? { ENCRYPTION: process.env.ENCRYPTION } : {}),
  });
  return {
    baseUrl: `http://localhost:${port}`,
    db: server.database.db,
    async stop() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
