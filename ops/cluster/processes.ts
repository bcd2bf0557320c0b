// Child processes of the rehearsal: started with their output in a log file of the cluster's
// folder, stopped with a signal and awaited. A reaper (reaper.ts) outlives nothing: when the
// process that started the cluster goes away, even by SIGKILL, it kills every pid listed in the
// folder and stops PostgreSQL, so no part lingers holding its port.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Child {
  name: string;
  process: ChildProcess;
  exited: Promise<number | null>;
}

/** Spawns `command` with stdout and stderr appended to `logFile`; its pid is listed for the reaper. */
export function startChild(
  name: string,
  command: string,
  args: string[],
  options: { logFile: string; env?: NodeJS.ProcessEnv; cwd?: string; pidList?: string; stdinPipe?: boolean },
): Child {
  const log = openSync(options.logFile, 'a');
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: [options.stdinPipe ? 'pipe' : 'ignore', log, log],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  if (options.pidList && child.pid) appendFileSync(options.pidList, `${child.pid}\n`);
  return { name, process: child, exited };
}

/** SIGTERM (or `signal`), then SIGKILL after `graceMs`; resolves when the process is gone. */
export async function stopChild(child: Child, signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  child.process.kill(signal);
  const timer = setTimeout(() => child.process.kill('SIGKILL'), graceMs);
  await child.exited;
  clearTimeout(timer);
}

/** Runs a command to its end; throws with its output when it fails. */
export function runCommand(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): string {
  const result = spawnSync(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** Polls `check` until it answers true, or throws after `timeoutMs` naming `what`. */
export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number, intervalMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Resident set size of a pid in bytes (Linux /proc), null when it is gone. */
export function rssOf(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = status.match(/^VmRSS:\s+(\d+) kB/m);
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** The reaper: a child whose stdin is our pipe; when the pipe ends, it cleans up the folder's processes. */
export function startReaper(dir: string, pidList: string, stopPostgres: string[]): ChildProcess {
  writeFileSync(join(dir, 'reaper.json'), JSON.stringify({ pidList, stopPostgres }));
  const reaper = spawn(process.execPath, [join(import.meta.dirname, 'reaper.ts'), join(dir, 'reaper.json')], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: true,
  });
  reaper.unref();
  (reaper.stdin as unknown as { unref?: () => void }).unref?.();
  return reaper;
}
