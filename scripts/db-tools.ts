// What `npm run db:backup` and `npm run db:restore` share: the PostgreSQL client programs to use,
// the connection checks that turn a driver error into a sentence, and running a program.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

/** Thrown for what the operator should read as it is (no stack): a missing file, a refused server. */
export class CliError extends Error {}

/** The URL with its password hidden, for messages. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(an unreadable URL)';
  }
}

/** The database a URL names (its path), or a CliError. */
export function databaseOf(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new CliError(`The database URL is not a URL: ${shownUrl(url)}. Write it as postgres://user@host:5432/database.`);
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') throw new CliError(`The database URL must start with postgres:// (it is ${u.protocol}//…).`);
  const name = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (!name) throw new CliError(`The database URL ${shownUrl(url)} names no database (postgres://host:5432/DATABASE).`);
  return name;
}

/** The same server and user, another database. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(name)}`;
  return u.toString();
}

/** A driver error as a sentence for the operator (unreachable server, refused login, no such database). */
export function connectionProblem(error: unknown, url: string): CliError {
  const e = error as { code?: string; message?: string };
  const where = shownUrl(url);
  if (e.code === 'ECONNREFUSED' || e.code === 'ENOTFOUND' || e.code === 'EHOSTUNREACH' || e.code === 'ETIMEDOUT' || e.code === 'EAI_AGAIN')
    return new CliError(`Cannot reach the PostgreSQL server of ${where} (${e.code}): is it running, and are the host and port right?`);
  if (e.code === '3D000') return new CliError(`The database of ${where} does not exist.`);
  if (e.code === '28P01' || e.code === '28000') return new CliError(`The PostgreSQL server refused the login of ${where}: ${e.message}`);
  return new CliError(`Cannot connect to ${where}: ${e.message ?? String(error)}`);
}

/** Opens a client on `url` or throws a CliError saying why not. */
export async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw connectionProblem(error, url);
  }
  return client;
}

/** The server's major version (15 for 15.20). */
export async function serverMajor(client: pg.Client): Promise<number> {
  const row = (await client.query<{ v: string }>("select current_setting('server_version_num') as v")).rows[0];
  return Math.floor(Number(row?.v) / 10_000);
}

/**
 * The folder of the client programs to use with a server of `major`: the newest of Debian's
 * /usr/lib/postgresql/<major>/bin that is at least the server's (pg_dump refuses a newer server),
 * or '' for the programs on PATH.
 */
export function clientBinDir(major: number, root = '/usr/lib/postgresql'): string {
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((d) => /^[0-9]+$/.test(d) && existsSync(join(root, d, 'bin', 'pg_dump')) && existsSync(join(root, d, 'bin', 'pg_restore')))
        .map(Number)
        .sort((a, b) => b - a)
    : [];
  const newest = majors[0];
  return newest !== undefined && newest >= major ? join(root, String(newest), 'bin') : '';
}

export function program(binDir: string, name: 'pg_dump' | 'pg_restore'): string {
  return binDir ? join(binDir, name) : name;
}

/** Runs a program; answers its exit code and its standard output and error (each kept in full). */
export function run(command: string, args: string[], options: { echo?: boolean } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (options.echo) process.stderr.write(chunk);
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new CliError(`${command} is not installed (apt-get install postgresql-client).`) : error),
    );
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** Checks a custom-format archive with `pg_restore --list`; answers how many entries it lists. */
export async function listArchive(binDir: string, file: string): Promise<number> {
  const listed = await run(program(binDir, 'pg_restore'), ['--list', file]);
  if (listed.code !== 0) throw new CliError(`${file} is not a readable pg_dump archive: ${listed.stderr.trim() || `pg_restore --list exited ${listed.code}`}`);
  return listed.stdout.split('\n').filter((line) => line.trim() !== '' && !line.startsWith(';')).length;
}

export function seconds(fromMs: number): string {
  return `${((performance.now() - fromMs) / 1000).toFixed(1)} s`;
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

/** The message the PGlite default gets: no silent success when DATABASE_URL is unset. */
export function embeddedDatabaseMessage(dataDir: string, action: 'back up' | 'restore'): string {
  const folder = join(dataDir, 'pglite');
  return action === 'back up'
    ? `DATABASE_URL is not set, so the app uses the embedded PGlite database in ${folder}. This command backs up PostgreSQL only. ` +
        `To back up the embedded database, stop the app and copy the whole folder (e.g. tar -czf nadi-pglite-$(date -u +%Y%m%dT%H%M%SZ).tar.gz -C ${dataDir} pglite); ` +
        'a copy taken while the app runs may not open. Or pass --database-url postgres://… to back up a PostgreSQL database.'
    : `No --database-url given. This command restores into PostgreSQL only. To restore the embedded PGlite database, stop the app and put the copied folder back as ${folder} ` +
        '(move the current one aside first).';
}

/** Runs `main`, printing a CliError as its sentence and anything else with its stack; exits non-zero on either. */
export async function runCli(main: () => Promise<number>): Promise<void> {
  try {
    process.exitCode = await main();
  } catch (error) {
    if (error instanceof CliError) console.error(`error: ${error.message}`);
    else console.error(error);
    process.exitCode = 1;
  }
}
