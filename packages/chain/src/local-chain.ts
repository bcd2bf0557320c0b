import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface LocalChainOptions {
  /** TCP port; omitted or 0 lets the OS pick a free one (no race: the node binds it itself). */
  port?: number;
  /** Interface to bind; defaults to 127.0.0.1 so the dev chain is not exposed on the network. */
  host?: string;
  /** How long to wait for eth_chainId to answer; default 60 s. */
  timeoutMs?: number;
  /** Receives every output line of the node (it logs each RPC call), e.g. for a start script. */
  onOutput?: (line: string) => void;
}

export interface LocalChain {
  rpcUrl: string;
  chainId: 31337;
  stop(): Promise<void>;
}

const expectedChainId = 31337;
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const configPath = path.join(packageDir, 'hardhat.config.ts');
const exitWithParentPath = fileURLToPath(new URL('./exit-with-parent.ts', import.meta.url));
const outputTailLines = 40;
const stopGraceMs = 5_000;

function hardhatCliPath(): string {
  const require = createRequire(import.meta.url);
  const packageJsonPath = require.resolve('hardhat/package.json');
  const { bin } = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { bin: { hardhat: string } };
  return path.join(path.dirname(packageJsonPath), bin.hardhat);
}

/**
 * Hardhat 3 reports telemetry and fetches a banner only from an interactive terminal outside CI;
 * the child's stdout is a pipe, and these variables make the choice explicit rather than implied.
 * CI also turns on stack traces, which is what reveals the cause of a failed start.
 */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HARDHAT_DISABLE_TELEMETRY: 'true', CI: 'true', NO_COLOR: '1' };
  // Node warns when NO_COLOR and FORCE_COLOR are both set.
  delete env.FORCE_COLOR;
  return env;
}

function spawnNode(host: string, port: number): ChildProcessWithoutNullStreams {
  // Explicit config and network, so a HARDHAT_CONFIG or HARDHAT_NETWORK in the environment cannot redirect it.
  const hardhat = [hardhatCliPath(), '--config', configPath, '--network', 'node'];
  const args = ['--import', exitWithParentPath, ...hardhat, 'node', '--hostname', host, '--port', String(port)];
  // detached: the node leads its own process group, so stop() can signal the whole tree.
  return spawn(process.execPath, args, { cwd: packageDir, env: childEnv(), stdio: 'pipe', detached: true });
}

/** Keeps the last lines of output for error messages and passes each line on. */
function collectOutput(child: ChildProcessWithoutNullStreams, onLine: (line: string) => void): () => string[] {
  const tail: string[] = [];
  const split = (stream: NodeJS.ReadableStream): void => {
    let pending = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      for (const raw of lines) {
        // eslint-disable-next-line no-control-regex -- strips ANSI colours, should any get through.
        const line = raw.replace(/\x1b\[[0-9;]*m/g, '').trimEnd();
        tail.push(line);
        if (tail.length > outputTailLines) tail.shift();
        onLine(line);
      }
    });
  };
  split(child.stdout);
  split(child.stderr);
  return () => [...tail];
}

export async function rpcRequest<T>(rpcUrl: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(5_000),
  });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method} failed: ${body.error.message}`);
  return body.result as T;
}

/** Mines n empty blocks at once, e.g. to reach a confirmation depth under automine. */
export async function mineBlocks(rpcUrl: string, n: number): Promise<void> {
  if (!Number.isInteger(n) || n < 1) throw new Error(`mineBlocks: n must be a positive integer, got ${n}`);
  await rpcRequest(rpcUrl, 'hardhat_mine', [`0x${n.toString(16)}`]);
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

function exitCode(child: ChildProcessWithoutNullStreams): number | string | null {
  return child.exitCode ?? child.signalCode;
}

function isRunning(child: ChildProcessWithoutNullStreams): boolean {
  return exitCode(child) === null;
}

function signalGroup(child: ChildProcessWithoutNullStreams, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return; // never spawned
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function waitForExit(child: ChildProcessWithoutNullStreams, ms: number): Promise<boolean> {
  if (!isRunning(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function stopChild(child: ChildProcessWithoutNullStreams): Promise<void> {
  signalGroup(child, 'SIGTERM');
  if (await waitForExit(child, stopGraceMs)) return;
  signalGroup(child, 'SIGKILL');
  if (!(await waitForExit(child, stopGraceMs))) {
    throw new Error(`Hardhat node (pid ${child.pid}) did not exit after SIGKILL`);
  }
}

const startedLine = /JSON-RPC server at http:\/\/(\S+):(\d+)\//;

/** Explains the failures whose raw output is misleading or buried in a stack trace. */
function hint(output: string, host: string, port: number): string {
  if (output.includes('EADDRINUSE')) {
    return `Port ${port} on ${host} is already in use (another Hardhat node?). Stop that process, or omit port to pick a free one.`;
  }
  if (output.includes('Cannot find native binding')) {
    return (
      "Hardhat's native EDR binding (@nomicfoundation/edr-<platform>) is not installed: npm skips that optional " +
      'package silently when `npm install` itself runs under Node < 22 (its engines field). Reinstall under Node 24: ' +
      '`sh scripts/node.sh "$(readlink -f "$(command -v npm)")" ci` at the repository root.'
    );
  }
  return 'The Hardhat node failed to start.';
}

function startupError(message: string, lines: string[]): Error {
  return new Error(`${message}\n--- last Hardhat node output ---\n${lines.join('\n')}`);
}

interface Startup {
  child: ChildProcessWithoutNullStreams;
  host: string;
  port: number;
  deadline: number;
  tail: () => string[];
  /** The port of the node's "JSON-RPC server at" line, once a line said it. */
  startedPort: () => number | null;
}

/** Resolves with the port the node reports once listening; rejects if it exits or time runs out. */
function waitForListening({ child, host, port, deadline, tail, startedPort }: Startup): Promise<number> {
  const waitMs = Math.max(0, deadline - Date.now());
  return new Promise((resolve, reject) => {
    const cleanup = (): void => {
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(startupError(`Could not run the Hardhat node: ${error.message}`, tail()));
    };
    const onData = (): void => {
      const started = startedPort();
      if (started !== null) {
        cleanup();
        resolve(started);
      }
    };
    const onExit = (): void => {
      cleanup();
      // Let the last buffered output arrive before quoting it.
      setImmediate(() => {
        const lines = tail();
        reject(startupError(`${hint(lines.join('\n'), host, port)} (exit ${exitCode(child)})`, lines));
      });
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(startupError(`The Hardhat node did not start listening within ${waitMs} ms.`, tail()));
    }, waitMs);
    child.stdout.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

async function waitForChainId(rpcUrl: string, deadline: number): Promise<number> {
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      return Number(await rpcRequest<string>(rpcUrl, 'eth_chainId'));
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`eth_chainId did not answer at ${rpcUrl}: ${String(lastError)}`);
}

/**
 * Starts `hardhat node` (chain id 31337, automine, the default mnemonic's accounts unlocked) as a
 * child process and resolves once it answers eth_chainId. Call stop() when done.
 */
export async function startLocalChain(options: LocalChainOptions = {}): Promise<LocalChain> {
  const host = options.host ?? '127.0.0.1';
  const requestedPort = options.port ?? 0;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  const child = spawnNode(host, requestedPort);
  // The started line is caught as it passes: on a busy machine it can arrive in one chunk with the
  // account list after it, which pushes it out of the tail before anything reads the tail.
  let startedPort: number | null = null;
  const tail = collectOutput(child, (line) => {
    const match = startedPort === null ? line.match(startedLine) : null;
    if (match) startedPort = Number(match[2]);
    options.onOutput?.(line);
  });
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => (stopping ??= stopChild(child));
  try {
    const port = await waitForListening({ child, host, port: requestedPort, deadline, tail, startedPort: () => startedPort });
    const rpcUrl = `http://${urlHost(host)}:${port}`;
    const chainId = await waitForChainId(rpcUrl, deadline);
    if (chainId !== expectedChainId) throw new Error(`Expected chain id ${expectedChainId}, the node reports ${chainId}`);
    return { rpcUrl, chainId: expectedChainId, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
