// The SQL function files (functions.ts, docs/sql.md): each function has one definition, in the file
// of its name under modules/<module>/sql/, none in a migration; the applier applies a new or changed
// file once, in dependency order, and refuses a broken one, which keeps its old definition and hash.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/harness.ts';
import { openDatabase } from './client.ts';
import { applyFunctions, readFunctionFiles } from './functions.ts';
import { rowsOf } from './rows.ts';

const repoRoot = resolve(import.meta.dirname, '../../../..');
const definition = /\bcreate\s+(?:or\s+replace\s+)?function\s+(?:"?public"?\.)?"?([a-z_][a-z0-9_]*)/gi;
const functionFile = /^apps\/server\/src\/modules\/[^/]+\/sql\/([a-z_][a-z0-9_]*)\.sql$/;

describe('SQL functions in the tree', () => {
  // Every file git knows or would add; test files make throw-away functions of their own.
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: repoRoot, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(sql|ts|tsx|js|mjs|cjs)$/.test(f) && !/\.test\.tsx?$/.test(f));
  const definitions: { name: string; file: string }[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(join(repoRoot, file), 'utf8');
    } catch {
      continue; // deleted in the work tree, not yet in the index
    }
    for (const m of text.matchAll(definition)) definitions.push({ name: m[1]!.toLowerCase(), file });
  }

  it('finds the function files', () => {
    expect(definitions.filter((d) => functionFile.test(d.file)).length).toBeGreaterThanOrEqual(13);
  });

  it('defines functions only in modules/<module>/sql/<name>.sql, never in a migration or elsewhere', () => {
    expect(definitions.filter((d) => !functionFile.test(d.file))).toEqual([]);
  });

  it('defines each function once, in the file of its name, with CREATE OR REPLACE', () => {
    const byName = new Map<string, string[]>();
    for (const d of definitions) byName.set(d.name, [...(byName.get(d.name) ?? []), d.file]);
    expect([...byName].filter(([, where]) => where.length > 1)).toEqual([]);
    for (const d of definitions) {
      const m = functionFile.exec(d.file);
      if (!m) continue;
      expect(d.name, d.file).toBe(m[1]);
      const text = readFileSync(join(repoRoot, d.file), 'utf8');
      expect(text, d.file).toMatch(new RegExp(`CREATE OR REPLACE FUNCTION ${d.name}\\(`));
    }
  });
});

describe('the applier', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let root: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    root = mkdtempSync(join(tmpdir(), 'nadi-sql-'));
  });
  afterAll(async () => {
    await database.close();
    rmSync(root, { recursive: true, force: true });
  });

  const write = (module: string, name: string, text: string) => {
    mkdirSync(join(root, module, 'sql'), { recursive: true });
    writeFileSync(join(root, module, 'sql', `${name}.sql`), text);
  };
  const recorded = async (name: string) =>
    rowsOf<{ hash: string }>(await database.db.execute(sql`select hash from drizzle.schema_functions where name = ${name}`))[0]?.hash;
  const call = async (text: string) => rowsOf<{ v: string }>(await database.db.execute(sql.raw(`select (${text})::text as v`)))[0]!.v;

  it('has applied every function file of the tree, and the database has no other function', async () => {
    const files = readFunctionFiles();
    const names = rowsOf<{ proname: string }>(
      await database.db.execute(sql`select proname from pg_proc where pronamespace = current_schema()::regnamespace order by proname`),
    ).map((r) => r.proname);
    expect(names).toEqual(files.map((f) => f.name).sort());
    for (const f of files) expect(await recorded(f.name), f.path).toBe(f.hash);
    // Nothing changed since: nothing to apply.
    expect(await applyFunctions(database.db)).toEqual([]);
  });

  it('orders a file after the functions its code calls (a LANGUAGE sql body is checked when made)', async () => {
    write('b', 'applier_test_aa_uses', 'CREATE OR REPLACE FUNCTION applier_test_aa_uses() RETURNS integer LANGUAGE sql RETURN applier_test_zz_base() + 1;\n');
    write(
      'a',
      'applier_test_zz_base',
      '-- applier_test_aa_uses calls it (a comment names no dependency)\nCREATE OR REPLACE FUNCTION applier_test_zz_base() RETURNS integer LANGUAGE sql RETURN 1;\n',
    );
    const files = readFunctionFiles(root);
    expect(files.map((f) => f.path)).toEqual(['a/sql/applier_test_zz_base.sql', 'b/sql/applier_test_aa_uses.sql']);
    expect(await applyFunctions(database.db, files)).toEqual(['applier_test_zz_base', 'applier_test_aa_uses']);
    expect(await call('applier_test_aa_uses()')).toBe('2');
  });

  it('applies a changed file again, and an unchanged one not', async () => {
    write('a', 'applier_test_zz_base', 'CREATE OR REPLACE FUNCTION applier_test_zz_base() RETURNS integer LANGUAGE sql RETURN 10;\n');
    const files = readFunctionFiles(root);
    expect(await applyFunctions(database.db, files)).toEqual(['applier_test_zz_base']);
    expect(await recorded('applier_test_zz_base')).toBe(files.find((f) => f.name === 'applier_test_zz_base')!.hash);
    expect(await call('applier_test_aa_uses()')).toBe('11');
    expect(await applyFunctions(database.db, readFunctionFiles(root))).toEqual([]);
  });

  it('refuses a broken file loudly, keeping its old definition and recorded hash', async () => {
    const before = await recorded('applier_test_zz_base');
    write('a', 'applier_test_zz_base', 'CREATE OR REPLACE FUNCTION applier_test_zz_base() RETURNS integer LANGUAGE plpgsql AS $$ BEGIN RETURN 20 END; $$;\n');
    await expect(applyFunctions(database.db, readFunctionFiles(root))).rejects.toThrow(/a\/sql\/applier_test_zz_base\.sql was not applied/);
    expect(await recorded('applier_test_zz_base')).toBe(before);
    expect(await call('applier_test_zz_base()')).toBe('10');
  });

  it('refuses a file that defines another name, or leaves a second signature beside the old one', async () => {
    write('a', 'applier_test_zz_base', 'CREATE OR REPLACE FUNCTION applier_test_zz_base() RETURNS integer LANGUAGE sql RETURN 10;\n');
    write('c', 'applier_test_named', 'CREATE OR REPLACE FUNCTION applier_test_other() RETURNS integer LANGUAGE sql RETURN 1;\n');
    await expect(applyFunctions(database.db, readFunctionFiles(root))).rejects.toThrow(/does not define a function applier_test_named/);
    expect(await call(`(select count(*) from pg_proc where proname = 'applier_test_other')`)).toBe('0');
    rmSync(join(root, 'c'), { recursive: true });

    write('a', 'applier_test_zz_base', 'CREATE OR REPLACE FUNCTION applier_test_zz_base(p integer) RETURNS integer LANGUAGE sql RETURN p;\n');
    await expect(applyFunctions(database.db, readFunctionFiles(root))).rejects.toThrow(/applier_test_zz_base now has 2 definitions/);
    expect(await call(`(select count(*) from pg_proc where proname = 'applier_test_zz_base')`)).toBe('1');
  });

  it('refuses two files of one name', () => {
    write('d', 'applier_test_aa_uses', 'CREATE OR REPLACE FUNCTION applier_test_aa_uses() RETURNS integer LANGUAGE sql RETURN 3;\n');
    expect(() => readFunctionFiles(root)).toThrow(/applier_test_aa_uses has two files/);
  });
});

describe.runIf(process.env.TEST_DB === 'postgres')('instances starting at once', () => {
  it('migrate one after the other under the advisory lock: each starts, the work is done once', async () => {
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const name = `nadi_test_lock_${process.pid}_${Date.now()}`;
    const admin = async (text: string) => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(text);
      } finally {
        await client.end();
      }
    };
    await admin(`create database ${name}`);
    try {
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const databases = await Promise.all([0, 1, 2].map(() => openDatabase({ url: url.toString(), dataDir: null, poolSizeMax: 2 })));
      try {
        const db = databases[0]!.db;
        const migrations = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`))[0]!.n;
        const journal = JSON.parse(readFileSync(join(import.meta.dirname, 'migrations/meta/_journal.json'), 'utf8')) as { entries: unknown[] };
        expect(migrations).toBe(journal.entries.length);
        const functions = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from drizzle.schema_functions`))[0]!.n;
        expect(functions).toBe(readFunctionFiles().length);
      } finally {
        await Promise.all(databases.map((d) => d.close()));
      }
    } finally {
      await admin(`drop database if exists ${name} with (force)`);
    }
  });
});
