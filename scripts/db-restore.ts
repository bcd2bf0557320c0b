// `npm run db:restore -- --from FILE --database-url URL [--replace] [--jobs N]`: restores a backup
// of `npm run db:backup` into a database (created when missing; one that has tables only with
// --replace, which drops and recreates it), then runs the ledger audit on what it restored and
// exits non-zero if any step fails. docs/operations.md "Back up and restore".
import { availableParallelism } from 'node:os';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { Db } from '../apps/server/src/db/client.ts';
import {
  bytes,
  clientBinDir,
  CliError,
  connect,
  connectionProblem,
  databaseOf,
  embeddedDatabaseMessage,
  listArchive,
  program,
  run,
  runCli,
  seconds,
  serverMajor,
  shownUrl,
  withDatabase,
} from './db-tools.ts';

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Tables of the database's own (any schema but the system ones). */
async function tableCount(url: string): Promise<number> {
  const client = await connect(url);
  try {
    const row = (
      await client.query<{ n: number }>(`select count(*)::int as n from pg_class c join pg_namespace s on s.oid = c.relnamespace
                                          where c.relkind in ('r', 'p') and s.nspname not in ('pg_catalog', 'information_schema') and s.nspname not like 'pg_toast%'`)
    ).rows[0];
    return row?.n ?? 0;
  } finally {
    await client.end();
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { from: { type: 'string' }, 'database-url': { type: 'string' }, replace: { type: 'boolean', default: false }, jobs: { type: 'string' } },
    strict: true,
  });
  if (!values.from) throw new CliError('Name the backup to restore: --from backups/nadi-….dump');
  // Never the app's DATABASE_URL by default: a restore with --replace drops what the URL names.
  if (!values['database-url']) throw new CliError(embeddedDatabaseMessage(process.env.DATA_DIR ?? '.data', 'restore'));
  const url = values['database-url'];
  const file = resolve(values.from);
  if (!existsSync(file)) throw new CliError(`The backup file ${file} does not exist.`);
  if (!statSync(file).isFile()) throw new CliError(`${file} is not a file.`);
  const jobs = values.jobs === undefined ? Math.min(4, availableParallelism()) : Number(values.jobs);
  if (!Number.isInteger(jobs) || jobs < 1) throw new CliError(`--jobs must be a whole number of at least 1 (it is ${values.jobs}).`);
  const target = databaseOf(url);
  if (['postgres', 'template0', 'template1'].includes(target)) throw new CliError(`Restore into a database of its own, not ${target}.`);
  const started = performance.now();

  // The server's maintenance database, to look for the target and create or drop it.
  const admin = await connect(withDatabase(url, 'postgres')).catch(async (error: unknown) => {
    if (error instanceof CliError && /does not exist/.test(error.message)) return connect(withDatabase(url, 'template1'));
    throw error;
  });
  let binDir: string;
  try {
    binDir = clientBinDir(await serverMajor(admin));
    const entries = await listArchive(binDir, file);
    console.info(`restoring ${file} (${bytes(statSync(file).size)}, ${entries} archive entries) into ${target} (${shownUrl(url)})`);
    const exists = (await admin.query('select 1 from pg_database where datname = $1', [target])).rowCount === 1;
    if (exists) {
      const tables = await tableCount(url);
      if (tables > 0 && !values.replace) {
        throw new CliError(
          `The database ${target} is not empty (${tables} tables). Restore into a new database, or add --replace to drop and recreate ${target}.`,
        );
      }
      if (values.replace) {
        console.info(`--replace: dropping and recreating ${target}`);
        await admin.query(`drop database ${quoted(target)} with (force)`);
        await admin.query(`create database ${quoted(target)}`);
      }
    } else {
      await admin.query(`create database ${quoted(target)}`);
      console.info(`created database ${target}`);
    }
  } finally {
    await admin.end();
  }

  const restoreStarted = performance.now();
  const restored = await run(program(binDir, 'pg_restore'), ['--no-owner', '--exit-on-error', `--jobs=${jobs}`, `--dbname=${url}`, file], { echo: true });
  if (restored.code !== 0) {
    console.error(`error: pg_restore failed (exit ${restored.code}); ${target} is partly restored. Fix the cause and run again with --replace.`);
    return 1;
  }
  console.info(`pg_restore (${jobs} job${jobs === 1 ? '' : 's'}): ${seconds(restoreStarted)}`);

  // The audit on the restored database as it is: no migration runs first (openDatabase would migrate).
  // The app's modules load only now: importing them takes seconds, which a refused restore need not wait.
  const auditStarted = performance.now();
  const [{ drizzle }, { printLedgerAudit }] = await Promise.all([import('drizzle-orm/node-postgres'), import('./ledger-audit.ts')]);
  const loadedMs = performance.now() - auditStarted;
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => {});
  let isOk: boolean;
  try {
    isOk = await printLedgerAudit(drizzle({ client: pool }) as unknown as Db, 'postgres, restored');
  } catch (error) {
    const e = error as { code?: string; message?: string };
    if (e.code && !/^[0-9A-Z]{5}$/.test(e.code)) throw connectionProblem(error, url);
    throw new CliError(`The ledger audit could not run on the restored database ${target}: ${e.message ?? String(error)}`);
  } finally {
    await pool.end();
  }
  console.info(`ledger audit: ${seconds(auditStarted)} (of which loading its code ${(loadedMs / 1000).toFixed(1)} s)`);
  console.info(`took: ${seconds(started)}`);
  if (!isOk) {
    console.error(`error: the ledger audit failed on the restored database ${target}.`);
    return 1;
  }
  return 0;
}

await runCli(main);
