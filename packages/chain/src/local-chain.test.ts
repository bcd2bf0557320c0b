import { spawn } from 'node:child_process';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { hardhatAccounts, hardhatDevPrivateKeys, hardhatMnemonic } from './demo-accounts.ts';
import { mineBlocks, rpcRequest, startLocalChain, type LocalChain } from './local-chain.ts';

let chain: LocalChain;

beforeAll(async () => {
  chain = await startLocalChain();
});

afterAll(async () => {
  await chain?.stop();
});

function listen(port = 0): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A bare TCP connect: unlike an RPC call it makes the node write no log line. */
function acceptsConnections(rpcUrl: string): Promise<boolean> {
  const { hostname, port } = new URL(rpcUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitUntilClosed(rpcUrl: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!(await acceptsConnections(rpcUrl))) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

describe('startLocalChain', () => {
  it('answers eth_chainId 31337 on a picked port of 127.0.0.1', async () => {
    expect(chain.chainId).toBe(31337);
    expect(chain.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await rpcRequest<string>(chain.rpcUrl, 'eth_chainId')).toBe('0x7a69');
  });

  it('holds the demo accounts unlocked, in order', async () => {
    const accounts = await rpcRequest<string[]>(chain.rpcUrl, 'eth_accounts');
    expect(accounts.slice(0, 10)).toEqual(hardhatAccounts.map((address) => address.toLowerCase()));
  });

  it('mines n blocks with mineBlocks', async () => {
    const before = Number(await rpcRequest<string>(chain.rpcUrl, 'eth_blockNumber'));
    await mineBlocks(chain.rpcUrl, 5);
    const after = Number(await rpcRequest<string>(chain.rpcUrl, 'eth_blockNumber'));
    expect(after - before).toBe(5);
  });

  it('rejects a non-positive block count', async () => {
    await expect(mineBlocks(chain.rpcUrl, 0)).rejects.toThrow(/positive integer/);
  });

  it('fails fast with a clear message when the port is taken', async () => {
    const blocker = await listen();
    const { port } = blocker.address() as AddressInfo;
    const started = Date.now();
    try {
      await expect(startLocalChain({ port })).rejects.toThrow(`Port ${port} on 127.0.0.1 is already in use`);
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      await close(blocker);
    }
  });

  it('uses a given port, and stop() closes it (twice is harmless)', async () => {
    const probe = await listen();
    const { port } = probe.address() as AddressInfo;
    await close(probe);
    const second = await startLocalChain({ port });
    expect(second.rpcUrl).toBe(`http://127.0.0.1:${port}`);
    await second.stop();
    await second.stop();
    expect(await acceptsConnections(second.rpcUrl)).toBe(false);
  });

  it('exits when its parent process dies without calling stop()', async () => {
    const moduleUrl = new URL('./local-chain.ts', import.meta.url).href;
    const script = `const { startLocalChain } = await import(${JSON.stringify(moduleUrl)});
      const chain = await startLocalChain(); console.log(chain.rpcUrl);`;
    const parent = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const rpcUrl = await new Promise<string>((resolve) => parent.stdout.once('data', (data: Buffer) => resolve(data.toString().trim())));
    expect(await acceptsConnections(rpcUrl)).toBe(true);
    parent.kill('SIGKILL');
    // Probed by TCP only: an RPC call would make the orphan log to its dead stdout and die of
    // EPIPE, which would hide whether the stdin watchdog works.
    expect(await waitUntilClosed(rpcUrl, 10_000)).toBe(true);
  });
});

describe('demo accounts', () => {
  it("are the default mnemonic's first 10 accounts, with matching dev keys", () => {
    hardhatAccounts.forEach((address, index) => {
      expect(mnemonicToAccount(hardhatMnemonic, { addressIndex: index }).address).toBe(address);
      expect(privateKeyToAccount(hardhatDevPrivateKeys[index]!).address).toBe(address);
    });
  });
});
