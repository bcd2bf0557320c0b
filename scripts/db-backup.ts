// `npm run db:backup -- [--database-url URL] [--out FILE]`: one consistent snapshot of a PostgreSQL
// database (pg_dump runs in one repeatable-read transaction) in pg_dump's custom format, written
// under a temporary name, checked with `pg_restore --list`, then renamed: a file named *.dump is
// always a whole, readable backup. docs/operations.md "Back up and restore".
import { mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  bytes,
  clientBinDir,
  CliError,
  connect,
  databaseOf,
  embeddedDatabaseMessage,
  listArchive,
  program,
  run,
  runCli,
  seconds,
  serverMajor,
  shownUrl,
} from './db-tools.ts';

/** backups/nadi-2026-11-28T13-40-05Z.dump (no colons: a file name on every system). */
export function defaultBackupFile(now = new Date()): string {
  return `backups/nadi-${now
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll(':', '-')}.dump`;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { 'database-url': { type: 'string' }, out: { type: 'string' } }, strict: true });
  const url = values['database-url'] ?? process.env.DATABASE_URL;
  if (!url) throw new CliError(embeddedDatabaseMessage(process.env.DATA_DIR ?? '.data', 'back up'));
  const database = databaseOf(url);
  const out = resolve(values.out ?? defaultBackupFile());
  const started = performance.now();

  const client = await connect(url);
  let major: number;
  try {
    major = await serverMajor(client);
  } finally {
    await client.end();
  }
  const binDir = clientBinDir(major);
  mkdirSync(dirname(out), { recursive: true });
  const partial = `${out}.partial-${process.pid}`;
  console.info(`backing up ${database} (${shownUrl(url)}, PostgreSQL ${major}) with ${program(binDir, 'pg_dump')}`);
  try {
    const dump = await run(program(binDir, 'pg_dump'), ['--format=custom', `--file=${partial}`, `--dbname=${url}`], { echo: true });
    if (dump.code !== 0) throw new CliError(`pg_dump failed (exit ${dump.code}); no backup was written.`);
    const entries = await listArchive(binDir, partial);
    renameSync(partial, out);
    console.info(`backup: ${out}`);
    console.info(`size: ${bytes(statSync(out).size)} (${statSync(out).size} bytes), ${entries} archive entries (checked with pg_restore --list)`);
    console.info(`took: ${seconds(started)}`);
    return 0;
  } finally {
    rmSync(partial, { force: true });
  }
}

await runCli(main);
