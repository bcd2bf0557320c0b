import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  type Account,
  type Address,
  type Chain,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { bsc, bscTestnet, hardhat } from 'viem/chains';

export const localChainId = 31337;

/** The local Hardhat chain (id 31337) reached at rpcUrl; viem's preset only knows port 8545. */
export function localChain(rpcUrl: string): Chain {
  return defineChain({ ...hardhat, rpcUrls: { default: { http: [rpcUrl] } } });
}

export const bscChain: Chain = bsc;
export const bscTestnetChain: Chain = bscTestnet;

function chainFor(rpcUrl: string, chainId: number): Chain {
  if (chainId === localChainId) return localChain(rpcUrl);
  if (chainId === bsc.id) return bsc;
  if (chainId === bscTestnet.id) return bscTestnet;
  throw new Error(`Unsupported chain id ${chainId}: expected ${localChainId}, ${bsc.id} or ${bscTestnet.id}`);
}

/** Local blocks are mined on demand, so poll often; viem's 4 s default would only add latency. */
const localPollingIntervalMs = 100;

export function publicClientFor(rpcUrl: string, chainId: number): PublicClient<Transport, Chain> {
  const pollingInterval = chainId === localChainId ? localPollingIntervalMs : undefined;
  return createPublicClient({ chain: chainFor(rpcUrl, chainId), transport: http(rpcUrl), pollingInterval });
}

/**
 * A wallet client for the local chain. An address means the node's own unlocked account
 * (eth_sendTransaction), so no key leaves the node; pass a viem Account to sign locally.
 */
export function localWalletClient(rpcUrl: string, account: Address | Account): WalletClient<Transport, Chain, Account> {
  return createWalletClient({ account, chain: localChain(rpcUrl), transport: http(rpcUrl), pollingInterval: localPollingIntervalMs });
}
