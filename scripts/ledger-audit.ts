// `npm run ledger:audit`: proves the ledger on the live database (DATABASE_URL, or the embedded
// one in DATA_DIR/.data) and exits non-zero, naming each account, on any difference.
// `npm run db:restore` runs the same audit on the database it restored (printLedgerAudit).
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from '../apps/server/src/db/client.ts';
import { auditLedger } from '../apps/server/src/modules/ledger/index.ts';

/** Runs the ledger audit on `db`, prints its report and answers whether it passed. */
export async function printLedgerAudit(db: Db, kind: string): Promise<boolean> {
  const report = await auditLedger(db);
  console.info(`ledger audit (${kind}): ${report.accounts} accounts, ${report.transfers} transfers`);
  for (const t of report.totals) console.info(`  ${t.asset}: sum over all accounts ${t.sum}`);
  if (report.isOk) {
    console.info(
      'OK: every asset sums to zero, no user balance or pool is negative, every balance and version matches the journal, the vesting account matches mining_vesting, no epoch paid more than it could.',
    );
  } else {
    console.error(`FAILED: ${report.problems.length} problem(s)`);
    for (const p of report.problems) console.error(`  - ${p}`);
  }
  return report.isOk;
}

async function main(): Promise<void> {
  // Loaded here, not above: db:restore imports printLedgerAudit and opens its database itself.
  const [{ loadSettings }, { openDatabase }] = await Promise.all([import('../apps/server/src/config.ts'), import('../apps/server/src/db/client.ts')]);
  const settings = loadSettings();
  if (!settings.databaseUrl) {
    // PGlite keeps its files for one process at a time; a running server must be stopped first.
    const isServing = await fetch(`http://127.0.0.1:${settings.port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (isServing) {
      console.error(`A server is running on port ${settings.port} with the embedded database; stop it (Ctrl-C) and run the audit again, or set DATABASE_URL.`);
      process.exit(2);
    }
  }
  const database = await openDatabase({ url: settings.databaseUrl, dataDir: settings.dataDir });
  try {
    if (!(await printLedgerAudit(database.db, database.kind))) process.exitCode = 1;
  } finally {
    await database.close();
  }
}

// Run as a command, not when imported (db-restore.ts imports printLedgerAudit).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
