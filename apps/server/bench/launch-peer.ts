// The peer of `npm run bench:launch` (launch.ts forks it with the peer database's URL): a bare
// Fastify + pg route inserting the purchase row the app's node/buy would, one INSERT a request. A
// file of its own so that its process loads Fastify and pg, not the app (a fork of launch.ts
// imported the whole app first: seconds of CPU at each start).
import Fastify from 'fastify';
import pg from 'pg';

const databaseUrl = process.argv[2];
if (!databaseUrl) throw new Error('usage: launch-peer.ts <database url>');

const pool = new pg.Pool({ connectionString: databaseUrl, max: 20 });
const app = Fastify({ logger: false });
app.post('/api/v1/node/buy', async (request) => {
  const b = request.body as { tier_id: number; pay_method: string; pay_asset?: string; price?: string };
  const user = request.headers['x-bench-user'];
  const { rows } = await pool.query<{ id: string }>(
    'insert into peer_purchases (user_id, tier_id, pay_method, pay_asset, price, request_key) values ($1, $2, $3, $4, $5, $6) returning id',
    [Number(user), b.tier_id, b.pay_method, b.pay_asset ?? 'NADI', b.price ?? null, request.headers['idempotency-key']],
  );
  return { code: 200, msg: 'OK', data: { id: Number(rows[0]?.id) } };
});
await app.listen({ host: '127.0.0.1', port: 0 });
process.on('message', () => {
  void app.close().then(() => pool.end().then(() => process.exit(0)));
});
const address = app.server.address();
if (!address || typeof address !== 'object') throw new Error('no port');
process.send?.({ port: address.port });
