import { createPublicClient, http, type Transport } from 'viem';
import type { ChainReader } from './published-root.ts';

/**
 * A read-only client on the app's public RPC (`chain.rpc_url` of the configuration: the server's
 * /rpc proxy locally, the network's public endpoint in production). No wallet is involved: anyone
 * may read what the contract holds. `transport` replaces HTTP in tests.
 */
export function chainReader(rpcUrl: string, transport: Transport = http(rpcUrl, { retryCount: 1 })): ChainReader {
  const client = createPublicClient({ transport });
  return {
    getChainId: () => client.getChainId(),
    readContract: (args) => client.readContract(args),
    getTransactionReceipt: (args) => client.getTransactionReceipt(args),
  };
}
