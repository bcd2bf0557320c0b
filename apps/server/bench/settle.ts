// `npm run bench:settle -- FILE`: replays the market's batch statements that bench:trade captured
// (BENCH_CAPTURE_SETTLE=FILE) on its database, one connection, nothing else running: what the
// single writer's statement costs PostgreSQL by itself, without HTTP, the app or autocannon on the
// same cores. Each round replays every batch in order, committed one by one, with order ids, trade
// seqs and flow keys shifted so they never meet the rows already there (the users and their
// balances are the bench's own). Prints ms per batch, µs per order placed, and a least-squares fit
// of a batch's time against the orders it touched (placed + changed): fixed + marginal cost.
//   BENCH_DATABASE_URL (the bench's server), BENCH_ROUNDS (2), BENCH_SYNC_COMMIT (on; "off" to
//   leave the WAL flush out of the figure). An empty capture or a batch the function refuses ends the
//   run with "FAILED" and a non-zero exit. `--smoke`: one round (on a capture of bench:trade's smoke
//   run, in apps/server/bench/benches.test.ts).
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { Problems, smokeDefaults } from './smoke.ts';
import { appDatabase, urlFor } from './trade-shared.ts';

smokeDefaults({ BENCH_ROUNDS: '1' });
const file = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
const problems = new Problems();
if (!file) throw new Error('usage: npm run bench:settle -- FILE (captured with BENCH_CAPTURE_SETTLE=FILE npm run bench:trade)');
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
const syncCommit = process.env.BENCH_SYNC_COMMIT ?? 'on';

type Row = Record<string, unknown> & { id: number };
interface Flow {
  key: string;
  legs: { memo: { order_id?: number } | null }[];
  trade?: { seq: number; maker_order_id: number; taker_order_id: number };
}
type Batch = [string, string | null, string, string, string];

const batches = readFileSync(file, 'utf8')
  .trim()
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => JSON.parse(line) as Batch);
problems.samples(batches.length, 'captured batches');

/** The batch with every id, seq and key moved by `shift`, so that it can run again beside its first run. */
function shifted([symbol, , news, flows, changed]: Batch, shift: number, epoch: string | null): { values: unknown[]; touched: number; placed: number } {
  const order = (o: Row) => ({ ...o, id: o.id + shift });
  const newOrders = (JSON.parse(news) as Row[]).map(order);
  const changedOrders = (JSON.parse(changed) as Row[]).map(order);
  const moved = (JSON.parse(flows) as Flow[]).map((f) => ({
    ...f,
    key: `${f.key}:replay${shift}`,
    legs: f.legs.map((l) => (l.memo?.order_id === undefined ? l : { ...l, memo: { ...l.memo, order_id: l.memo.order_id + shift } })),
    ...(f.trade
      ? { trade: { ...f.trade, seq: f.trade.seq + shift, maker_order_id: f.trade.maker_order_id + shift, taker_order_id: f.trade.taker_order_id + shift } }
      : {}),
  }));
  return {
    values: [symbol, epoch, JSON.stringify(newOrders), JSON.stringify(moved), JSON.stringify(changedOrders)],
    touched: newOrders.length + changedOrders.length,
    placed: newOrders.length,
  };
}

const client = new pg.Client({ connectionString: urlFor(appDatabase) });
await client.connect();
try {
  await client.query(`set synchronous_commit = ${syncCommit === 'off' ? 'off' : 'on'}`);
  const base = Number((await client.query<{ m: string }>('select coalesce(max(id), 0)::text as m from market_orders')).rows[0]?.m ?? 0);
  const seqBase = Number((await client.query<{ m: string }>('select coalesce(max(seq), 0)::text as m from market_trades')).rows[0]?.m ?? 0);
  // The writer epoch as it is now (the captured one, unless another writer opened since).
  const epoch = (await client.query<{ v: string }>(`select value::text as v from app_settings where key = 'market_epoch:NADI-USDT'`)).rows[0]?.v ?? null;
  const step = 10 ** Math.ceil(Math.log10(Math.max(base, seqBase, batches.length * 256) + 1));
  console.info(`bench:settle: ${batches.length} captured batches, ${rounds} rounds, synchronous_commit ${syncCommit}`);
  for (let round = 1; round <= rounds; round += 1) {
    const points: [number, number][] = [];
    let placed = 0;
    for (const batch of batches) {
      const b = shifted(batch, step * round, epoch);
      const started = performance.now();
      await client.query('select market_settle($1, $2::bigint, $3::jsonb, $4::jsonb, $5::jsonb)::text', b.values);
      points.push([b.touched, performance.now() - started]);
      placed += b.placed;
    }
    problems.samples(placed, `orders placed in round ${round}`);
    const ms = points.reduce((sum, [, y]) => sum + y, 0);
    const n = points.length;
    const [sx, sy] = [points.reduce((a, [x]) => a + x, 0), ms];
    const [sxx, sxy] = [points.reduce((a, [x]) => a + x * x, 0), points.reduce((a, [x, y]) => a + x * y, 0)];
    const slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    console.info(
      `  round ${round}: ${(ms / n).toFixed(2)} ms per batch of ${(placed / n).toFixed(1)} orders placed, ${((ms / placed) * 1000).toFixed(0)} µs per order; ` +
        `fit: ${((sy - slope * sx) / n).toFixed(2)} ms + ${slope.toFixed(3)} ms per order touched`,
    );
  }
} finally {
  await client.end();
}
problems.finish('bench:settle');
