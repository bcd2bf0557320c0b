import { fetchAppConfig } from '../app-config.ts';
import type { WalletClient } from './wallet-types.ts';

let pending: Promise<WalletClient> | null = null;

/** Loads wagmi and the connectors on first use (a separate chunk) and creates one client. */
export function loadWallet(): Promise<WalletClient> {
  if (!pending) {
    pending = Promise.all([fetchAppConfig(), import('./wallet-client.ts')]).then(([config, module]) => module.createWalletClient(config));
    // A failed load (offline, config error) may be retried on the next tap.
    pending.catch(() => {
      pending = null;
    });
  }
  return pending;
}

/** The client if something already loaded it; sign-out must not download wagmi just to disconnect. */
export function loadedWallet(): Promise<WalletClient> | null {
  return pending;
}
