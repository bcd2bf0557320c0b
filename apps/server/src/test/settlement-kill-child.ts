// The process kill.test.ts kills with SIGKILL in the middle of a settlement: it opens the test's
// database (DATABASE_URL, or the embedded one in DATA_DIR), says "settling" and settles SETTLE_EPOCH
// as of SETTLE_NOW. Not part of the app.
import { openDatabase } from '../db/client.ts';
import { settleEpoch } from '../modules/mining/index.ts';

const database = await openDatabase({ url: process.env.DATABASE_URL ?? null, dataDir: process.env.DATA_DIR ?? null, poolSizeMax: 2 });
const settings = { epochSeconds: Number(process.env.EPOCH_SECONDS), heartbeatSeconds: Number(process.env.HEARTBEAT_SECONDS) };
const now = new Date(process.env.SETTLE_NOW ?? '');
console.info('settling');
const outcome = await settleEpoch({ db: database.db, settings, now: () => now }, Number(process.env.SETTLE_EPOCH));
console.info(`done ${outcome.status}`);
await database.close();
