// Started by the cluster (processes.ts startReaper) with a pipe on its stdin. When the pipe ends
// (the cluster's process stopped, crashed or was killed), it kills every pid the cluster listed
// and stops the cluster's PostgreSQL, then exits. A cluster stopped cleanly has done both already.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const config = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as { pidList: string; stopPostgres: string[] };

function reap(): void {
  let pids: number[] = [];
  try {
    pids = readFileSync(config.pidList, 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    // No list: nothing was started.
  }
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  const [command, ...args] = config.stopPostgres;
  if (command) spawnSync(command, args, { stdio: 'ignore', timeout: 30_000 });
  process.exit(0);
}

process.stdin.on('end', reap);
process.stdin.on('error', reap);
process.stdin.resume();
