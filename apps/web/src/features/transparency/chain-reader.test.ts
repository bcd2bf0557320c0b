import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainReader, fetchJsonRpc } from './chain-reader.ts';

// The JSON-RPC the browser speaks to the public RPC, against a small HTTP server that answers as a
// node does (a real node is exercised by e2e/transparency.e2e.test.ts when a publisher is deployed).
let server: Server;
let url = '';
const seen: { method: string; params: unknown[] }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const call = JSON.parse(body) as { id: number; method: string; params: unknown[] };
      seen.push(call);
      const answer = (result: unknown) => response.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, result }));
      if (call.method === 'eth_chainId') return answer('0x7a69');
      if (call.method === 'eth_getTransactionReceipt') return answer(null);
      if (call.method === 'broken') return response.writeHead(502).end('bad gateway');
      response.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'method not found' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the browser’s chain reads', () => {
  it('asks the chain id and reads an unknown transaction as none', async () => {
    const reader = chainReader(fetchJsonRpc(url));
    expect(await reader.getChainId()).toBe(31337);
    expect(await reader.getTransactionReceipt({ hash: `0x${'1'.repeat(64)}` })).toBeNull();
    expect(seen.map((call) => call.method)).toEqual(['eth_chainId', 'eth_getTransactionReceipt']);
  });

  it('fails on an error answer and on an HTTP failure, naming the method', async () => {
    const rpc = fetchJsonRpc(url);
    await expect(rpc('eth_nothing', [])).rejects.toThrow('eth_nothing: method not found');
    await expect(rpc('broken', [])).rejects.toThrow('broken: HTTP 502');
  });
});
