// The shape of the lazily loaded wallet module, importable without pulling wagmi or viem in (type
// imports are erased).

import type { Config } from 'wagmi';

export type WalletKind = 'injected' | 'browser' | 'walletconnect' | 'demo';

export interface WalletOption {
  id: string;
  /** The wallet's own name (from EIP-6963) for discovered wallets; kinds without one are translated. */
  name: string;
  icon: string | null;
  kind: WalletKind;
}

export interface DemoWallet {
  listAccounts(): Promise<string[]>;
  selectAccount(address: string): void;
}

export interface WalletClient {
  options(): WalletOption[];
  onOptionsChange(listener: () => void): () => void;
  /** Resolves with the connected address. */
  connect(optionId: string): Promise<string>;
  currentAddress(): string | null;
  signMessage(address: string, message: string): Promise<string>;
  disconnect(): Promise<void>;
  /** Restores the last connection after a reload, if the wallet still allows it. */
  reconnect(): Promise<string | null>;
  onAddressChange(listener: (address: string | null) => void): () => void;
  /** Present only in development builds with the server's demo wallet switched on. */
  demo: DemoWallet | null;
  /** wagmi's configuration, for the chain actions of lazily loaded modules (lib/payment). */
  wagmi: Config;
}
