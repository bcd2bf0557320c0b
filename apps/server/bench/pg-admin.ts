// What every bench on PostgreSQL does to its server: name a database of it, and run one
// statement on a connection of its own (CREATE/DROP DATABASE cannot run in a pool's transaction).
import pg from 'pg';

/** The URL of `database` on the server of `serverUrl` (same host, user and options). */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs one statement on a connection of its own to `url`, then closes it. */
export async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
