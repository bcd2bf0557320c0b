import type { AppConfig } from '@nadi/api/config';
import { defineChain, type Chain } from 'viem';
import { createConfig, http, injected, type Config, type Connector, type CreateConnectorFn } from 'wagmi';
import { connect, disconnect, getConnection, reconnect, signMessage, watchConnection, watchConnectors } from 'wagmi/actions';
import { walletConnect } from 'wagmi/connectors/walletConnect';
import { absoluteUrl } from '../app-config.ts';
import type { DemoWallet, WalletClient, WalletKind, WalletOption } from './wallet-types.ts';

// This module is only ever loaded with a dynamic import: wagmi, viem and the connectors are the
// heaviest code in the app and the home route must not wait for them.

const metaMaskRdns = 'io.metamask';
const genericInjectedId = 'injected';

function chainFromConfig(config: AppConfig): Chain {
  const isBnb = config.chain.id === 56 || config.chain.id === 97;
  return defineChain({
    id: config.chain.id,
    name: config.chain.name,
    nativeCurrency: isBnb ? { name: 'BNB', symbol: 'BNB', decimals: 18 } : { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [absoluteUrl(config.chain.rpc_url)] } },
    blockExplorers: config.chain.explorer_url ? { default: { name: 'Explorer', url: config.chain.explorer_url } } : undefined,
  });
}

interface DemoSetup {
  connector: CreateConnectorFn;
  demo: DemoWallet;
  id: string;
}

async function loadDemo(config: AppConfig, rpcUrl: string): Promise<DemoSetup | null> {
  // A compile-time constant: in staging and production builds this branch and the demo module
  // it imports are removed entirely (build.test.ts checks the output).
  if (import.meta.env.MODE !== 'development' || !config.dev_wallet) return null;
  const { createDemoWallet } = await import('./demo-wallet.ts');
  const wallet = createDemoWallet(rpcUrl, config.chain.id);
  const connector = injected({ target: { id: wallet.id, name: wallet.id, provider: wallet.provider as never }, shimDisconnect: false });
  return { connector, demo: wallet, id: wallet.id };
}

function kindOf(connector: Connector, demoId: string | null): WalletKind {
  if (connector.id === demoId) return 'demo';
  if (connector.type === 'walletConnect') return 'walletconnect';
  if (connector.id === genericInjectedId) return 'browser';
  return 'injected';
}

function rank(option: WalletOption): number {
  if (option.id === metaMaskRdns) return 0;
  return { injected: 1, browser: 2, walletconnect: 3, demo: 4 }[option.kind];
}

function hasWindowEthereum(): boolean {
  return typeof (globalThis as { ethereum?: unknown }).ethereum === 'object';
}

function listOptions(wagmi: Config, demoId: string | null): WalletOption[] {
  const all = wagmi.connectors.map((connector) => ({
    id: connector.id,
    name: connector.name,
    icon: connector.icon ?? null,
    kind: kindOf(connector, demoId),
  }));
  // The generic entry only helps wallets that do not announce themselves through EIP-6963.
  const hasAnnounced = all.some((option) => option.kind === 'injected');
  return all
    .filter((option) => option.kind !== 'browser' || (!hasAnnounced && hasWindowEthereum()))
    .sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

function findConnector(wagmi: Config, id: string): Connector {
  const connector = wagmi.connectors.find((item) => item.id === id);
  if (!connector) throw Object.assign(new Error(`No wallet ${id}`), { name: 'ConnectorNotFoundError' });
  return connector;
}

export async function createWalletClient(config: AppConfig): Promise<WalletClient> {
  const chain = chainFromConfig(config);
  const rpcUrl = chain.rpcUrls.default.http[0] ?? absoluteUrl(config.chain.rpc_url);
  const demoSetup = await loadDemo(config, rpcUrl);
  const connectors: CreateConnectorFn[] = [injected()];
  if (config.walletconnect_project_id) {
    connectors.push(
      walletConnect({
        projectId: config.walletconnect_project_id,
        showQrModal: true,
        metadata: { name: config.title, description: config.title, url: location.origin, icons: [`${location.origin}/favicon.svg`] },
      }),
    );
  }
  if (demoSetup) connectors.push(demoSetup.connector);
  const wagmi = createConfig({ chains: [chain], connectors, transports: { [chain.id]: http(rpcUrl) } });
  const demoId = demoSetup?.id ?? null;

  return {
    options: () => listOptions(wagmi, demoId),
    onOptionsChange: (listener) => watchConnectors(wagmi, { onChange: () => listener() }),
    async connect(optionId) {
      const connector = findConnector(wagmi, optionId);
      const current = getConnection(wagmi);
      if (current.isConnected && current.connector?.uid === connector.uid && current.address) return current.address;
      const result = await connect(wagmi, { connector });
      const address = result.accounts[0];
      if (!address) throw Object.assign(new Error('The wallet returned no account'), { code: -32603 });
      return address;
    },
    currentAddress: () => getConnection(wagmi).address ?? null,
    signMessage: (address, message) => signMessage(wagmi, { account: address as `0x${string}`, message }),
    async disconnect() {
      if (getConnection(wagmi).isConnected) await disconnect(wagmi);
    },
    async reconnect() {
      // Reconnecting an already connected wallet would overwrite a newer account with the one
      // read at the start of the reconnect.
      if (!getConnection(wagmi).isConnected) await reconnect(wagmi);
      return getConnection(wagmi).address ?? null;
    },
    onAddressChange: (listener) =>
      watchConnection(wagmi, {
        // Every change counts, also one arriving while wagmi is still reconnecting: the user may
        // switch accounts at any moment.
        onChange(next, previous) {
          if (next.address !== previous.address) listener(next.address ?? null);
        },
      }),
    demo: demoSetup?.demo ?? null,
    wagmi,
  };
}
