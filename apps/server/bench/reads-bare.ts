// The bare side of `npm run bench:reads` (reads.ts forks it with the database URL): Fastify + pg (a
// pool of 20, as the app's), per read a session lookup by token hash, then the app's statements for
// that read (reads-sql.ts); it answers the rows as JSON. A file of its own so that its process loads
// Fastify and pg, not the app: a fork of reads.ts imported the whole app first, seconds of CPU at
// each start. The token hash is the app's (SHA-256, hex, as auth's sha256Hex): reads.ts checks that
// every side answers each read as 200 for a user signed in by the app's own session rows, so a hash
// that differed would fail the bench, smoke run included.
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { readNames, readPaths, readSql } from './reads-sql.ts';

const databaseUrl = process.argv[2];
if (!databaseUrl) throw new Error('usage: reads-bare.ts <database url>');

const pool = new pg.Pool({ connectionString: databaseUrl, max: 20 });
const app = Fastify({ logger: false });
for (const name of readNames) {
  const read = readSql[name];
  app.get(readPaths[name], async (request, reply) => {
    const token = request.headers.authorization;
    if (typeof token !== 'string') return reply.code(401).send({ code: 401, msg: 'UNAUTHORIZED' });
    const tokenHash = createHash('sha256').update(token).digest('hex');
    const session = (await pool.query<{ id: number; user_id: number; expires_at: Date }>(readSql.session.text, readSql.session.values(tokenHash))).rows[0];
    if (!session || session.expires_at.getTime() <= Date.now()) return reply.code(401).send({ code: 401, msg: 'UNAUTHORIZED' });
    const data = await read(pool, Number(session.user_id));
    return { code: 200, msg: 'OK', data };
  });
}
await app.listen({ host: '127.0.0.1', port: 0 });
process.on('message', (m: string) => {
  if (m === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  if (m === 'stop') void app.close().then(() => pool.end().then(() => process.exit(0)));
});
const address = app.server.address();
if (!address || typeof address !== 'object') throw new Error('no port');
if (process.send) process.send({ port: address.port });
else console.info(`serving at http://127.0.0.1:${address.port}`);
