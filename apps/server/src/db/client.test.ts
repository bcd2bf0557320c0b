import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/harness.ts';
import type { Database } from './client.ts';

// The chaos run (ops/chaos) restarts PostgreSQL under load: a connection the server ends while a
// transaction holds it must fail that transaction, not the process. node-postgres emits 'error' on
// a checked-out client whose connection ends, and an EventEmitter without a listener throws it.
describe.skipIf(process.env.TEST_DB !== 'postgres')('the PostgreSQL pool when the server ends a connection', () => {
  let database: Database & { url: string | null };
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('fails the transaction that held it and serves the next query', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      let pidOf: (pid: number) => void = () => undefined;
      const backend = new Promise<number>((resolve) => (pidOf = resolve));
      // Its failure is taken at once, so it is never an unhandled rejection while the test works on.
      const failure = database.db
        .transaction(async (tx) => {
          const rows = (await tx.execute(sql`select pg_backend_pid() as pid`)) as unknown as { rows: { pid: number }[] };
          pidOf(rows.rows[0]!.pid);
          await tx.execute(sql`select pg_sleep(30)`);
        })
        .then(
          () => null,
          (error: unknown) => error,
        );
      const admin = new pg.Client({ connectionString: database.url! });
      await admin.connect();
      try {
        await admin.query('select pg_terminate_backend($1)', [await backend]);
      } finally {
        await admin.end();
      }
      expect(await failure).toBeInstanceOf(Error);
      // The client's 'end' comes a tick after the query's error.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(uncaught).toEqual([]);
      const after = (await database.db.execute(sql`select 1 as one`)) as unknown as { rows: { one: number }[] };
      expect(after.rows[0]?.one).toBe(1);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});
