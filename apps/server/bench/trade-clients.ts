// WebSocket clients of `npm run bench:trade`, in their own process (the server's event loop and
// file descriptors stay its own). Arguments: url, client count, `app` (send a SUBSCRIBE to
// /ws/trade) or `bare` (the peer sends to every connection). While recording, each message's
// receive time (CLOCK_MONOTONIC µs, the clock the server stamps with) is kept under its key; the
// orchestrator subtracts the server's send times afterwards. Per message the client only reads
// the key from the raw bytes: no JSON parsing, so the clients cost as little as possible.
import { booksStream, monoUs, tradesStream, ws, type ClientCommand, type ClientReply, type WsSocket } from './trade-shared.ts';

const [url = '', countText = '0', mode = 'bare'] = process.argv.slice(2);
const clientCount = Number(countText);
/** Handshakes in flight at once. */
const connectConcurrency = 200;
const connectTimeoutMs = 20_000;
const subscribeTimeoutMs = 60_000;

const reply = (message: ClientReply) => process.send?.(message);
const sockets: WsSocket[] = [];
const received = new Map<number, number[]>();
let isRecording = false;
let closed = 0;
let subscribed = 0;

// Both streams are `nadiusdt@…`; the byte after the prefix tells books from trades.
const streamPrefix = 'nadiusdt@';
const prefix = Buffer.from(`{"stream":"${streamPrefix}`);
const booksByte = booksStream.charCodeAt(streamPrefix.length);
const tradesByte = tradesStream.charCodeAt(streamPrefix.length);
const seqField = Buffer.from('"seq":');
const tradeIdField = Buffer.from('"tradeId":');
const subscribedReply = Buffer.from('"id":1,"result":null');

function readInt(data: Buffer, from: number): number {
  let n = 0;
  for (let i = from; i < data.length; i += 1) {
    const d = (data[i] as number) - 48;
    if (d < 0 || d > 9) break;
    n = n * 10 + d;
  }
  return n;
}

/** A books update is keyed by its seq, a trades message by minus its first trade id. */
function keyOf(data: Buffer): number | null {
  if (data.compare(prefix, 0, prefix.length, 0, prefix.length) !== 0) return null;
  const kind = data[prefix.length];
  if (kind === booksByte) {
    const at = data.indexOf(seqField);
    return at < 0 ? null : readInt(data, at + seqField.length);
  }
  if (kind === tradesByte) {
    const at = data.indexOf(tradeIdField);
    return at < 0 ? null : -readInt(data, at + tradeIdField.length);
  }
  return null;
}

function onMessage(data: Buffer): void {
  if (!isRecording) {
    if (data.indexOf(subscribedReply) >= 0) subscribed += 1;
    return;
  }
  const at = monoUs();
  const key = keyOf(data);
  if (key === null) return;
  let list = received.get(key);
  if (!list) received.set(key, (list = []));
  list.push(at);
}

function open(): Promise<boolean> {
  return new Promise((resolve) => {
    const s = new ws.WebSocket(url, { perMessageDeflate: false, skipUTF8Validation: true, handshakeTimeout: connectTimeoutMs });
    s.on('open', () => {
      sockets.push(s);
      resolve(true);
    });
    s.on('error', () => resolve(false));
    s.on('close', () => {
      if (isRecording) closed += 1;
    });
    s.on('message', onMessage);
  });
}

async function connectAll(): Promise<void> {
  const started = performance.now();
  let next = 0;
  let failed = 0;
  const lane = async () => {
    while (next < clientCount) {
      next += 1;
      if (!(await open())) failed += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(connectConcurrency, clientCount) }, lane));
  reply({ type: 'connected', open: sockets.length, failed, ms: performance.now() - started });
}

async function subscribeAll(): Promise<void> {
  const started = performance.now();
  const request = JSON.stringify({ method: 'SUBSCRIBE', params: [booksStream, tradesStream], id: 1 });
  for (const s of sockets) s.send(request);
  const deadline = started + subscribeTimeoutMs;
  while (subscribed < sockets.length && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  reply({ type: 'subscribed', count: subscribed, ms: performance.now() - started });
}

function report(): void {
  const keys = [...received.keys()];
  const starts = new Uint32Array(keys.length + 1);
  let total = 0;
  keys.forEach((k, i) => {
    starts[i] = total;
    total += (received.get(k) as number[]).length;
  });
  starts[keys.length] = total;
  const times = new Float64Array(total);
  keys.forEach((k, i) => times.set(received.get(k) as number[], starts[i]));
  isRecording = false;
  reply({ type: 'report', keys: Float64Array.from(keys), starts, times, closed });
}

process.on('message', (c: ClientCommand) => {
  switch (c.type) {
    case 'connect':
      void connectAll();
      return;
    case 'subscribe':
      if (mode === 'app') void subscribeAll();
      else reply({ type: 'subscribed', count: sockets.length, ms: 0 });
      return;
    case 'record':
      received.clear();
      closed = 0;
      isRecording = true;
      reply({ type: 'recording' });
      return;
    case 'report':
      report();
      return;
    case 'close':
      isRecording = false;
      for (const s of sockets) s.terminate();
      process.send?.({ type: 'closed' } satisfies ClientReply, () => process.exit(0));
      return;
  }
});
