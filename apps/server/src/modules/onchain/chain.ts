import { createPublicClient, getAddress, http, type Address, type PublicClient } from 'viem';
import type { AppSettings } from '../../config.ts';

/** How the chain workers reach the chain: one viem client and the configured contracts. */
export interface ChainContext {
  client: PublicClient;
  chainId: number;
  nadi: Address | null;
  usdt: Address | null;
  gateway: Address | null;
  /** The ProofPublisher contract (docs/transparency.md). */
  proofPublisher: Address | null;
  confirmations: number;
  scanBlocksMax: number;
  pollMs: number;
}

const chainTimeoutMs = 10_000;

export function chainContext(settings: AppSettings, client?: PublicClient): ChainContext {
  return {
    client: client ?? createPublicClient({ transport: http(settings.rpcUrl, { timeout: chainTimeoutMs, retryCount: 1 }) }),
    chainId: settings.chainId,
    nadi: settings.nadiAddress ? getAddress(settings.nadiAddress) : null,
    usdt: settings.usdtAddress ? getAddress(settings.usdtAddress) : null,
    gateway: settings.paymentGatewayAddress ? getAddress(settings.paymentGatewayAddress) : null,
    proofPublisher: settings.proofPublisherAddress ? getAddress(settings.proofPublisherAddress) : null,
    confirmations: settings.confirmations,
    scanBlocksMax: settings.chainScanBlocksMax,
    pollMs: settings.chainPollMs,
  };
}

/** A background loop of the server (a scanner, the sender); stop() waits for the current round. */
export interface Worker {
  name: string;
  stop(): Promise<void>;
}
