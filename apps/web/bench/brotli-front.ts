// `--brotli`: what the phone would get if the server sent its static files compressed (it sends them
// as they are: apps/server/src/plugins/web.ts has no compression). A front on its own port passes
// every request to the server and answers the app's own files (HTML, JS, CSS, SVG, JSON) brotli
// compressed at quality 11, compressed once per file as a build step would; API calls, the RPC
// proxy and sockets pass through untouched, so only the static transfer sizes change.
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { brotliCompressSync, constants } from 'node:zlib';
import type { StaticServer } from './starter.ts';

const passThroughPrefix = /^\/(api|ws|rpc|docs|healthz|metrics)(\/|$|\?)/;
const compressibleType = /javascript|css|html|svg|json/;
/** The front keeps each compressed answer; the app's build is a few megabytes at most. */
const cacheEntriesMax = 1_000;

function forward(target: URL, req: IncomingMessage, res: ServerResponse, cache: Map<string, Buffer>): void {
  const isStatic = req.method === 'GET' && !passThroughPrefix.test(req.url ?? '/');
  const acceptsBrotli = /\bbr\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const upstream = request(
    { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, 'accept-encoding': 'identity' } },
    (answer) => {
      if (!isStatic || !acceptsBrotli || answer.statusCode !== 200 || !compressibleType.test(String(answer.headers['content-type'] ?? ''))) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const raw = Buffer.concat(chunks);
        const key = `${req.url}:${raw.length}`;
        let body = cache.get(key);
        if (!body) {
          body = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
          if (cache.size < cacheEntriesMax) cache.set(key, body);
        }
        res.writeHead(200, { ...answer.headers, 'content-encoding': 'br', 'content-length': String(body.length), vary: 'accept-encoding' });
        res.end(body);
      });
    },
  );
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
}

/** A socket upgrade (the trade and account sockets) goes to the server byte for byte. */
function tunnel(target: URL, req: IncomingMessage, client: Socket, head: Buffer): void {
  const server = connect(Number(target.port), target.hostname, () => {
    let lines = `${req.method} ${req.url} HTTP/1.1\r\n`;
    for (let i = 0; i < req.rawHeaders.length; i += 2) lines += `${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`;
    server.write(`${lines}\r\n`);
    server.write(head);
    client.pipe(server).pipe(client);
  });
  server.on('error', () => client.destroy());
  client.on('error', () => server.destroy());
}

export async function startBrotliFront(targetUrl: string): Promise<StaticServer> {
  const target = new URL(targetUrl.replace('localhost', '127.0.0.1'));
  const cache = new Map<string, Buffer>();
  const front = createServer((req, res) => forward(target, req, res, cache));
  front.on('upgrade', (req: IncomingMessage, client: Socket, head: Buffer) => tunnel(target, req, client, head));
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const address = front.address();
  if (!address || typeof address === 'string') throw new Error('the brotli front has no port');
  return {
    url: `http://localhost:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        front.closeAllConnections();
        front.close(() => resolve());
      }),
  };
}
