// The E2E wallet: an EIP-1193 provider announced through EIP-6963 that forwards to the local chain
// through the server's /rpc proxy (development), with hooks to reject the next request or switch
// accounts. Free of vitest, so `npm run screenshots` installs the same one.
import type { BrowserContext } from 'playwright-core';

/** How a wallet announces itself through EIP-6963 (`info` of the announce event). */
export interface WalletInfo {
  uuid: string;
  name: string;
  /** A data: URI, as EIP-6963 requires. */
  icon: string;
  rdns: string;
}

export const defaultWalletInfo: WalletInfo = {
  uuid: '5c0e3a3e-2f7b-4f7e-9a53-e2e000000001',
  name: 'E2E Wallet',
  icon: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>',
  rdns: 'dev.nadi.e2e',
};

/**
 * Puts an EIP-1193 wallet into the page, announced through EIP-6963 as "E2E Wallet". It forwards
 * every call to the local chain through the app's /rpc proxy, so signatures are real: the Hardhat
 * node signs with its unlocked test account. A test can make the next call of a method fail as a
 * user rejection (code 4001) or switch the selected account, through `window[handle]`. With `chainId`
 * the wallet starts on that (other) network: it says so, switches when asked (recording each switch in
 * `window[handle].chainSwitches`) and refuses to send a transaction while it is not on the node's chain,
 * as a real wallet would send it elsewhere. Without it, the wallet is always on the node's chain.
 *
 * Installed more than once with other `info` and `handle`, the page has several wallets at once,
 * each announcing itself (as phones with two wallet extensions or apps do).
 */
export async function installWallet(
  context: BrowserContext,
  account: string,
  options: { info?: WalletInfo; handle?: string; chainId?: number } = {},
): Promise<void> {
  await context.addInitScript(
    ({ initialAccount, info, handle, initialChain }) => {
      type Listener = (...args: unknown[]) => void;
      const listeners = new Map<string, Set<Listener>>();
      const state = { account: initialAccount, isConnected: false, rejectNext: new Set<string>(), chainId: initialChain };
      const chainSwitches: string[] = [];
      const emit = (event: string, ...args: unknown[]) => listeners.get(event)?.forEach((fn) => fn(...args));
      const rpc = async (method: string, params: unknown[]) => {
        const res = await fetch('/rpc', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: Date.now(), method, params }),
        });
        const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
        if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code });
        return body.result;
      };
      const provider = {
        isE2E: true,
        async request({ method, params = [] }: { method: string; params?: unknown[] }) {
          if (state.rejectNext.delete(method)) throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
          switch (method) {
            case 'eth_requestAccounts':
              state.isConnected = true;
              return [state.account];
            case 'eth_accounts':
              return state.isConnected ? [state.account] : [];
            case 'eth_chainId':
              return state.chainId ?? rpc(method, params as unknown[]);
            case 'wallet_switchEthereumChain': {
              if (state.chainId === null) return null;
              const next = (params[0] as { chainId: string }).chainId;
              chainSwitches.push(next);
              state.chainId = next;
              emit('chainChanged', next);
              return null;
            }
            case 'wallet_addEthereumChain':
              return null;
            case 'eth_sendTransaction':
              if (state.chainId !== null && state.chainId !== (await rpc('eth_chainId', []))) {
                throw Object.assign(new Error(`The wallet is on chain ${state.chainId}, not the node's`), { code: -32000 });
              }
              return rpc(method, params as unknown[]);
            case 'wallet_requestPermissions':
              state.isConnected = true;
              return [{ parentCapability: 'eth_accounts' }];
            case 'wallet_revokePermissions':
              state.isConnected = false;
              return null;
            default:
              return rpc(method, params as unknown[]);
          }
        },
        on(event: string, fn: Listener) {
          if (!listeners.has(event)) listeners.set(event, new Set());
          listeners.get(event)?.add(fn);
        },
        removeListener(event: string, fn: Listener) {
          listeners.get(event)?.delete(fn);
        },
      };
      const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }));
      window.addEventListener('eip6963:requestProvider', announce);
      announce();
      Object.assign(window, {
        [handle]: {
          rejectNext: (method: string) => state.rejectNext.add(method),
          chainSwitches,
          switchAccount: (next: string) => {
            state.account = next;
            emit('accountsChanged', [next]);
          },
        },
      });
    },
    {
      initialAccount: account,
      info: options.info ?? defaultWalletInfo,
      handle: options.handle ?? '__e2eWallet',
      initialChain: options.chainId === undefined ? null : `0x${options.chainId.toString(16)}`,
    },
  );
}
