import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Table ownership (docs/architecture.md "Table ownership"), the twin of lint-boundaries.test.ts: every
// table is declared in exactly one module's schema.ts, and only that module's code names it. Another
// module reaches it through the owner's index.ts functions. The map is derived from the schema files
// themselves, so a new table is owned the moment it is declared.

const modulesDir = fileURLToPath(new URL('./modules', import.meta.url));

export interface SourceFile {
  module: string;
  /** Relative to src/modules, e.g. 'market/repo.ts'. */
  path: string;
  text: string;
}

export interface Violation {
  module: string;
  path: string;
  table: string;
  owner: string;
  how: 'sql' | 'schema import';
}

/**
 * The few cross-module reads that stay, each with why. An entry that no longer matches anything
 * fails the test, so the list only shrinks. Keep it short: the default is the owner's index.ts.
 */
export const allowed: { module: string; path: string; tables: string[]; reason: string }[] = [
  {
    module: 'ledger',
    path: 'ledger/audit.ts',
    tables: ['mining_vesting', 'mining_epochs', 'pledge_positions', 'pledge_interest'],
    reason: 'the ledger audit compares the system accounts with what mining and savings owe, in one snapshot of the books',
  },
  {
    module: 'ledger',
    path: 'ledger/frozen.ts',
    tables: ['users'],
    reason: "every flow checks the user's freeze inside its transaction; user/ imports the ledger (accounts at registration), so the reverse would be a cycle",
  },
  {
    module: 'mining',
    path: 'mining/trial.ts',
    tables: ['users'],
    reason: 'the start step grants every existing user a trial miner in one set-based statement',
  },
  // Debt (a follow-up of issue 29): a purchase and a new member update every ancestor's figures in
  // one statement whose lock order is tuned (docs/team.md), reading the ancestors from the closure
  // (user_ancestors, owned by user) and the buyer's referrer inside it. Reading them first through
  // user/index.ts adds a round trip to every purchase; measure before moving it.
  {
    module: 'team',
    path: 'team/performance.ts',
    tables: ['users', 'user_ancestors'],
    reason: "debt: a purchase's and a new member's one-statement update of every ancestor",
  },
];

/**
 * The epoch settlements and the market's batch are SQL functions (modules/<m>/sql/<name>.sql) that
 * run in one transaction: what they read of other modules is the snapshot that transaction settles.
 * Checked for staleness once modules/<m>/sql/ exists in the tree.
 */
export const allowedSqlFunctions: { module: string; path: string; tables: string[]; reason: string }[] = [
  {
    module: 'market',
    path: 'market/sql/market_settle.sql',
    tables: ['app_settings'],
    reason: "a batch checks the writer epoch (config's counter) in the statement that writes it",
  },
  {
    module: 'mining',
    path: 'mining/sql/mining_settle_epoch.sql',
    tables: ['ledger_accounts', 'devices', 'device_uptime'],
    reason: "the computation freezes the epoch's device uptime and moves what it pays from the pool in one transaction",
  },
  {
    module: 'mining',
    path: 'mining/sql/mining_settle_chunk.sql',
    tables: ['ledger_accounts'],
    reason: 'a chunk names the settlement, vesting and fund accounts of its legs (docs/settlement.md)',
  },
  {
    module: 'mining',
    path: 'mining/sql/settlement_post_chunk.sql',
    tables: ['ledger_accounts'],
    reason: 'a chunk sums what its legs take from the settlement accounts, in its transaction',
  },
  {
    module: 'mining',
    path: 'mining/sql/settlement_finish.sql',
    tables: ['ledger_accounts'],
    reason: 'an epoch is settled only once the settlement accounts are empty again',
  },
  {
    module: 'node',
    path: 'node/sql/node_settle_epoch.sql',
    tables: ['ledger_accounts', 'ledger_transfers', 'mining_epochs', 'mining_settle_stage'],
    reason: "node rewards come from the same epoch's staged mining income and fee inflow, in the computation's transaction",
  },
  {
    module: 'node',
    path: 'node/sql/node_settle_chunk.sql',
    tables: ['ledger_accounts'],
    reason: 'a chunk names the settlement and fund accounts of its legs',
  },
  {
    module: 'pledge',
    path: 'pledge/sql/pledge_settle_epoch.sql',
    tables: ['ledger_accounts', 'mining_epochs'],
    reason: "savings interest moves from the pool in the computation's transaction, after the mining part",
  },
  {
    module: 'pledge',
    path: 'pledge/sql/pledge_settle_chunk.sql',
    tables: ['ledger_accounts', 'mining_epochs', 'miners'],
    reason: "a chunk releases ended terms and stops their miners (their power through mining_power_moves), in the chunk's transaction",
  },
  {
    module: 'team',
    path: 'team/sql/team_settle_epoch.sql',
    tables: ['mining_epochs', 'mining_settle_stage', 'users', 'user_ancestors'],
    reason: "team rewards walk the tree over the epoch's staged mining income, in the computation's transaction",
  },
  {
    module: 'team',
    path: 'team/sql/team_settle_pay.sql',
    tables: ['ledger_accounts'],
    reason: 'the referral pool pays the lines at the end of the computation',
  },
  {
    module: 'team',
    path: 'team/sql/team_settle_chunk.sql',
    tables: ['ledger_accounts'],
    reason: 'a chunk names the settlement and fund accounts of its legs',
  },
];

/** Table name → owning module, and the drizzle export name → owning module, from every schema.ts. */
export function ownership(schemas: SourceFile[]) {
  const tables = new Map<string, string>();
  const exports = new Map<string, string>();
  const duplicates: string[] = [];
  for (const file of schemas) {
    for (const m of file.text.matchAll(/export const (\w+) = pgTable\(\s*'(\w+)'/g)) {
      const [, name, table] = m as unknown as [string, string, string];
      if (tables.has(table)) duplicates.push(`${table} (${tables.get(table)} and ${file.module})`);
      tables.set(table, file.module);
      exports.set(name, file.module);
    }
  }
  return { tables, exports, duplicates };
}

/** Comments out of TypeScript (a table named in prose is not a query). */
function withoutComments(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/^\s*\/\/.*$/gm, ' ')
    .replace(/\s\/\/\s.*$/gm, ' ');
}

/** SQL that names a table: after FROM, JOIN, INTO, UPDATE, TABLE or TRUNCATE (a schema prefix allowed), word-bounded. */
const sqlKeyword = String.raw`\b(?:from|join|into|update|table|truncate)\s+(?:only\s+)?(?:"?public"?\.)?"?`;

export function violationsOf(files: SourceFile[], tables: Map<string, string>): Violation[] {
  const found: Violation[] = [];
  const tableRe = new RegExp(`${sqlKeyword}(${[...tables.keys()].join('|')})\\b`, 'gi');
  for (const file of files) {
    const text = file.path.endsWith('.sql') ? file.text.replace(/--.*$/gm, ' ') : withoutComments(file.text);
    const named = new Set<string>();
    for (const m of text.matchAll(tableRe)) named.add(m[1]!.toLowerCase());
    for (const table of named) {
      const owner = tables.get(table)!;
      if (owner !== file.module) found.push({ module: file.module, path: file.path, table, owner, how: 'sql' });
    }
    // Drizzle table objects come from a schema file: the module's own, or (schema.ts only, for a
    // foreign key) another module's. The aggregate db/schema.ts is for db/client.ts alone.
    const isSchema = /^[^/]+\/schema\.ts$/.test(file.path);
    for (const m of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)) {
      const [, names, spec] = m as unknown as [string, string, string];
      const target = /(?:^|\/)db\/schema\.ts$/.test(spec) ? '(db/schema.ts)' : /^(?:\.\.\/)+([a-z-]+)\/schema\.ts$/.exec(spec)?.[1];
      if (!target || target === file.module || (isSchema && target !== '(db/schema.ts)')) continue;
      for (const name of names.split(',').map(
        (n) =>
          n
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]!,
      )) {
        if (name) found.push({ module: file.module, path: file.path, table: name, owner: target, how: 'schema import' });
      }
    }
  }
  return found;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

function moduleFiles(): SourceFile[] {
  return walk(modulesDir)
    .map((abs) => relative(modulesDir, abs).split('\\').join('/'))
    .filter((path) => (path.endsWith('.ts') && !path.endsWith('.test.ts')) || /^[^/]+\/sql\/.*\.sql$/.test(path))
    .map((path) => ({ module: path.split('/')[0]!, path, text: readFileSync(join(modulesDir, path), 'utf8') }));
}

const isAllowed = (v: Violation) => [...allowed, ...allowedSqlFunctions].some((a) => a.module === v.module && a.path === v.path && a.tables.includes(v.table));

describe('table ownership', () => {
  const files = moduleFiles();
  const { tables, duplicates } = ownership(files.filter((f) => f.path === `${f.module}/schema.ts`));

  it('declares every table in exactly one module', () => {
    expect(duplicates).toEqual([]);
    expect(tables.size).toBeGreaterThan(50);
  });

  it('gathers every module schema into db/schema.ts (the one schema object db/client.ts hands drizzle)', () => {
    const aggregate = readFileSync(fileURLToPath(new URL('./db/schema.ts', import.meta.url)), 'utf8');
    const gathered = [...aggregate.matchAll(/export \* from '\.\.\/modules\/([a-z-]+)\/schema\.ts';/g)].map((m) => m[1]).sort();
    const modules = [...new Set(files.filter((f) => f.path === `${f.module}/schema.ts`).map((f) => f.module))].sort();
    expect(gathered).toEqual(modules);
  });

  it("keeps each module's SQL and drizzle tables to its own tables", () => {
    const found = violationsOf(files, tables).filter((v) => !isAllowed(v));
    expect(found.map((v) => `${v.module}: ${v.path} names ${v.table} (${v.how}) owned by ${v.owner}`)).toEqual([]);
  });

  it('has no stale allowlist entry', () => {
    const found = violationsOf(files, tables);
    const hasSqlFiles = files.some((f) => f.path.endsWith('.sql'));
    const checked = [...allowed, ...(hasSqlFiles ? allowedSqlFunctions : [])];
    const stale = checked.flatMap((a) =>
      a.tables.filter((t) => !found.some((v) => v.module === a.module && v.path === a.path && v.table === t)).map((t) => `${a.path} ${t}`),
    );
    expect(stale).toEqual([]);
  });

  it('catches SQL on another module’s table, and a foreign schema import (fixtures)', () => {
    const fixtureTables = new Map([
      ['ledger_accounts', 'ledger'],
      ['market_orders', 'market'],
      ['users', 'user'],
    ]);
    const fixture = (text: string, path = 'market/fixture.ts'): SourceFile => ({ module: path.split('/')[0]!, path, text });
    const found = violationsOf(
      [
        fixture('const a = sql`select available from ledger_accounts where user_id = ${id}`;'),
        fixture('const b = sql`update market_orders set status = 1`;\nconst c = sql`select 1 from public.users u join market_orders o on o.user_id = u.id`;'),
        fixture('// reads from users through user/index.ts\n/** join ledger_accounts in prose */\nconst d = 1;'),
        fixture("import { users } from '../user/schema.ts';\nimport { ledgerAccounts as l } from '../../db/schema.ts';"),
        fixture("import { users } from '../user/schema.ts';", 'market/schema.ts'),
        fixture('insert into ledger_accounts (id) values (1);', 'market/sql/fixture.sql'),
      ],
      fixtureTables,
    );
    expect(found.map((v) => `${v.path} ${v.table} ${v.how}`)).toEqual([
      'market/fixture.ts ledger_accounts sql',
      'market/fixture.ts users sql',
      'market/fixture.ts users schema import',
      'market/fixture.ts ledgerAccounts schema import',
      'market/sql/fixture.sql ledger_accounts sql',
    ]);
  });
});
