import { decodeFunctionResult, encodeFunctionData, type Hex } from 'viem';
import type { ChainReader } from './published-root.ts';

// A read-only client on the app's public RPC (`chain.rpc_url` of the configuration: the server's
// /rpc proxy locally, the network's public endpoint in production). No wallet is involved: anyone
// may read what the contract holds. Plain JSON-RPC with viem's ABI coding only: a viem client would
// bring its signature code along (about 60 KB gzip more for this one click).

/** One JSON-RPC call; throws on a transport failure or an error answer. */
export type JsonRpc = (method: string, params: unknown[]) => Promise<unknown>;

/** Longest wait for one answer: a check must end, with "the chain could not be reached" at worst. */
const rpcTimeoutMs = 15_000;

export function fetchJsonRpc(url: string): JsonRpc {
  let id = 0;
  return async (method, params) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: (id += 1), method, params }),
      signal: AbortSignal.timeout(rpcTimeoutMs),
    });
    if (!response.ok) throw new Error(`${method}: HTTP ${response.status}`);
    const body = (await response.json()) as { result?: unknown; error?: { message?: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message ?? 'error'}`);
    return body.result;
  };
}

interface RawReceipt {
  status: Hex;
  logs: { address: string; data: Hex; topics: Hex[] }[];
}

export function chainReader(rpc: JsonRpc): ChainReader {
  return {
    getChainId: async () => Number(await rpc('eth_chainId', [])),
    async readContract({ address, abi, functionName, args }) {
      const data = encodeFunctionData({ abi, functionName, args });
      const result = (await rpc('eth_call', [{ to: address, data }, 'latest'])) as Hex;
      return decodeFunctionResult({ abi, functionName, data: result });
    },
    async getTransactionReceipt({ hash }) {
      const raw = (await rpc('eth_getTransactionReceipt', [hash])) as RawReceipt | null;
      if (!raw) return null;
      return { status: raw.status === '0x1' ? 'success' : 'reverted', logs: raw.logs };
    },
  };
}
