// Development only (imported behind `import.meta.env.MODE === 'development'`). An EIP-1193
// provider that forwards JSON-RPC to the local Hardhat node through the server's /rpc proxy.
// The node's demo accounts are unlocked and sign `personal_sign` themselves, so no private key
// exists in the web app; the user only picks which account to use.

type Listener = (...args: unknown[]) => void;

interface RpcAnswer {
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

function providerError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}

interface DemoState {
  selected: string | null;
  chainId: number;
  forward: (method: string, params: unknown) => Promise<unknown>;
}

/** The wallet's own answers; everything else goes to the node. */
function answer(state: DemoState, method: string, params: unknown): Promise<unknown> | unknown {
  switch (method) {
    case 'eth_requestAccounts':
      if (!state.selected) throw providerError(4001, 'No demo account was chosen');
      return [state.selected];
    case 'eth_accounts':
      return state.selected ? [state.selected] : [];
    case 'eth_chainId':
      return `0x${state.chainId.toString(16)}`;
    case 'wallet_requestPermissions':
      // Unsupported (EIP-1193 4200): the connector then falls back to eth_requestAccounts.
      throw providerError(4200, 'wallet_requestPermissions is not supported');
    case 'wallet_revokePermissions':
      state.selected = null;
      return null;
    case 'wallet_switchEthereumChain':
      return null;
    default:
      return state.forward(method, params);
  }
}

function rpcForwarder(rpcUrl: string) {
  let requestId = 0;
  return async (method: string, params: unknown): Promise<unknown> => {
    requestId += 1;
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: requestId, method, params: params ?? [] }),
    });
    if (!response.ok) throw providerError(-32603, `RPC answered HTTP ${response.status}`);
    const reply = (await response.json()) as RpcAnswer;
    if (reply.error) throw Object.assign(providerError(reply.error.code, reply.error.message), { data: reply.error.data });
    return reply.result;
  };
}

export function createDemoWallet(rpcUrl: string, chainId: number) {
  const state: DemoState = { selected: null, chainId, forward: rpcForwarder(rpcUrl) };
  const listeners = new Map<string, Set<Listener>>();
  const provider = {
    request: async ({ method, params }: { method: string; params?: unknown }) => answer(state, method, params),
    on(event: string, listener: Listener) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)?.add(listener);
      return provider;
    },
    removeListener(event: string, listener: Listener) {
      listeners.get(event)?.delete(listener);
      return provider;
    },
  };

  return {
    id: 'nadi-demo-wallet',
    provider,
    async listAccounts(): Promise<string[]> {
      const accounts = await state.forward('eth_accounts', []);
      return Array.isArray(accounts) ? accounts.filter((item): item is string => typeof item === 'string') : [];
    },
    selectAccount(address: string) {
      const previous = state.selected;
      state.selected = address;
      // Choosing another account while connected behaves like switching accounts in a wallet.
      if (previous && previous.toLowerCase() !== address.toLowerCase()) {
        for (const listener of listeners.get('accountsChanged') ?? []) listener([address]);
      }
    },
  };
}
