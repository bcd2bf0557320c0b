// The SQL functions (and the triggers that run them): one current definition each, in a file of the
// module that owns it, applied after the versioned migrations whenever the file changes. The
// repeatable migrations of Flyway (`R__` files) and immich's schema/functions.ts are the models;
// docs/sql.md says how to add or change one.
//
// - Where: apps/server/src/modules/<module>/sql/<function_name>.sql, one `CREATE OR REPLACE FUNCTION
//   <function_name>` per file (the file's name), with its comment; a trigger function's file also
//   (re)makes its triggers (`CREATE OR REPLACE TRIGGER`). Statements are separated by drizzle's
//   `--> statement-breakpoint` line, as in the migrations (PGlite runs one statement per query).
//   Migrations keep tables, indexes and data changes; no migration defines or calls a function (on a
//   fresh database the migrations all run first, the functions after). functions.test.ts checks it.
// - When: `applyFunctions` reads every file, compares its sha256 with the one recorded in
//   drizzle.schema_functions (beside drizzle's own __drizzle_migrations) and applies each file that
//   is new or changed, each in its own transaction together with its new record: a file that fails
//   rolls back, throws (the server does not start) and keeps its old definition and hash.
// - Order: a file comes after the function files whose names its code mentions (comments aside), ties
//   by name, so that a LANGUAGE sql function (checked when it is made) finds the functions it calls;
//   PL/pgSQL bodies are resolved when they run and need no order. A mutual mention is broken by name.
// - A changed signature: `CREATE OR REPLACE` cannot rename parameters or change the return type, and
//   with other argument types it adds a second function beside the old one. The applier refuses a
//   name with more than one definition; the old one is dropped by a versioned migration (it runs
//   first), then the file makes the new one.
// - Several instances starting at once: `migrateDatabase` (client.ts) holds a PostgreSQL advisory
//   lock (MIGRATION_LOCK) on one connection around drizzle's migrations and this applier.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { rowsOf } from './rows.ts';

/** The folder whose modules hold the function files (`<module>/sql/<name>.sql`). */
export const modulesFolder = join(import.meta.dirname, '../modules');

/** The key of the advisory lock held around migrations and function files (any fixed bigint). */
export const MIGRATION_LOCK = 2026112901n;

export interface FunctionFile {
  /** The function's name, the file's name without `.sql`. */
  name: string;
  /** The file's path from the modules folder, e.g. `ledger/sql/ledger_post.sql`. */
  path: string;
  text: string;
  /** sha256 of the text, hex. */
  hash: string;
}

/** Every function file under `root`, in the order they are applied. */
export function readFunctionFiles(root = modulesFolder): FunctionFile[] {
  const files: FunctionFile[] = [];
  for (const module of readdirSync(root).sort()) {
    const folder = join(root, module, 'sql');
    if (!existsSync(folder)) continue;
    for (const file of readdirSync(folder).sort()) {
      if (!file.endsWith('.sql')) continue;
      const text = readFileSync(join(folder, file), 'utf8');
      files.push({ name: file.slice(0, -'.sql'.length), path: `${module}/sql/${file}`, text, hash: createHash('sha256').update(text).digest('hex') });
    }
  }
  const seen = new Map<string, string>();
  for (const f of files) {
    const other = seen.get(f.name);
    if (other) throw new Error(`SQL function ${f.name} has two files: ${other} and ${f.path}`);
    seen.set(f.name, f.path);
  }
  return inDependencyOrder(files);
}

/** The files ordered so that each comes after the files whose function names its code mentions. */
function inDependencyOrder(files: FunctionFile[]): FunctionFile[] {
  const byName = new Map(files.map((f) => [f.name, f]));
  const uses = new Map<string, string[]>();
  for (const f of files) {
    const code = f.text.replace(/--.*$/gm, '');
    const words = new Set(code.match(/[a-z_][a-z0-9_]*/gi)?.map((w) => w.toLowerCase()) ?? []);
    uses.set(
      f.name,
      [...byName.keys()].filter((n) => n !== f.name && words.has(n)),
    );
  }
  const ordered: FunctionFile[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string) => {
    if (state.get(name)) return; // done, or a cycle: broken here, by name order
    state.set(name, 'visiting');
    for (const dep of (uses.get(name) ?? []).sort()) visit(dep);
    state.set(name, 'done');
    ordered.push(byName.get(name)!);
  };
  for (const name of [...byName.keys()].sort()) visit(name);
  return ordered;
}

/**
 * Applies every function file that is new or changed since it was last applied; returns the names
 * applied. Runs after drizzle's migrations, under the caller's advisory lock.
 */
export async function applyFunctions(db: Db, files = readFunctionFiles()): Promise<string[]> {
  await db.execute(sql`create schema if not exists drizzle`);
  await db.execute(
    sql`create table if not exists drizzle.schema_functions (name text primary key, hash text not null, path text not null, applied_at timestamptz not null)`,
  );
  const recorded = new Map(
    rowsOf<{ name: string; hash: string }>(await db.execute(sql`select name, hash from drizzle.schema_functions`)).map((r) => [r.name, r.hash]),
  );
  const applied: string[] = [];
  for (const file of files) {
    if (recorded.get(file.name) === file.hash) continue;
    try {
      await db.transaction(async (tx) => {
        for (const statement of file.text.split('--> statement-breakpoint')) await tx.execute(sql.raw(statement));
        const defined = rowsOf<{ signature: string }>(
          await tx.execute(sql`select p.oid::regprocedure::text as signature from pg_proc p
                                where p.proname = ${file.name} and p.pronamespace = current_schema()::regnamespace`),
        );
        if (defined.length !== 1) {
          throw new Error(
            defined.length === 0
              ? `it does not define a function ${file.name}`
              : `${file.name} now has ${defined.length} definitions (${defined.map((d) => d.signature).join(', ')}): drop the old one in a migration`,
          );
        }
        await tx.execute(sql`insert into drizzle.schema_functions (name, hash, path, applied_at) values (${file.name}, ${file.hash}, ${file.path}, now())
                             on conflict (name) do update set hash = excluded.hash, path = excluded.path, applied_at = excluded.applied_at`);
      });
    } catch (error) {
      throw new Error(`SQL function file ${file.path} was not applied: ${(error as Error).message}`, { cause: error });
    }
    applied.push(file.name);
  }
  return applied;
}
