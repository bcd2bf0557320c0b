// The process kill.test.ts kills with SIGKILL in the middle of a settlement: it opens the test's
// database (DATABASE_URL, or the embedded one in DATA_DIR), says "settling" and settles SETTLE_EPOCH
// as of SETTLE_NOW in chunks of CHUNK_USERS users, saying "chunk <k>" after each chunk it posts. With
// PAUSE_AFTER_CHUNKS=n it says "paused" after its n-th chunk and waits there (to be killed between
// chunks). Not part of the app.
import { openDatabase } from '../db/client.ts';
import { settleEpoch } from '../modules/mining/index.ts';

const database = await openDatabase({ url: process.env.DATABASE_URL ?? null, dataDir: process.env.DATA_DIR ?? null, poolSizeMax: 2 });
const settings = { epochSeconds: Number(process.env.EPOCH_SECONDS), heartbeatSeconds: Number(process.env.HEARTBEAT_SECONDS) };
const now = new Date(process.env.SETTLE_NOW ?? '');
const pauseAfter = process.env.PAUSE_AFTER_CHUNKS ? Number(process.env.PAUSE_AFTER_CHUNKS) : null;
let posted = 0;
console.info('settling');
const outcome = await settleEpoch(
  {
    db: database.db,
    settings,
    now: () => now,
    chunkUsers: Number(process.env.CHUNK_USERS ?? 1_000),
    onChunk: async (c) => {
      posted += 1;
      console.info(`chunk ${c.chunk}`);
      if (pauseAfter !== null && posted >= pauseAfter) {
        console.info('paused');
        await new Promise(() => undefined);
      }
    },
  },
  Number(process.env.SETTLE_EPOCH),
);
console.info(`done ${outcome.status}`);
await database.close();
