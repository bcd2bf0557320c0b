// bench:web measures the app as production serves it: through HAProxy with TLS and HTTP/2 (ALPN
// h2, then http/1.1), as in the rehearsal's cluster (ops/cluster/cluster.ts, docs/rehearsal.md),
// and the starter through the same proxy, so both sides pay the same handshake. Plain HTTP/1.1 on
// the app's own port (`--plain`) is what a newcomer's `npm start` gives; Chromium opens at most six
// connections per origin on it, so a screen of forty small chunks waits for seven rounds of them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand, startChild, stopChild, waitFor } from '../../../ops/cluster/processes.ts';
import { makeCertificates, spkiPin } from '../../../ops/cluster/tls.ts';
import { freePort } from '../../../e2e/support/ports.ts';

export interface TlsProxy {
  /** https://localhost:<port> in front of each given http://localhost:<port> (same order). */
  urls: string[];
  /** Chromium's flag that accepts the proxy's certificate, and only it. */
  chromiumArg: string;
  stop(): Promise<void>;
}

export function tlsProxyConfig(pem: string, routes: { listen: number; target: number }[]): string {
  const frontends = routes.map(
    ({ listen, target }, i) => `
frontend site${i}
  bind 127.0.0.1:${listen} ssl crt ${pem} alpn h2,http/1.1
  http-request set-header X-Forwarded-Proto https
  default_backend site${i}

backend site${i}
  server s${i} 127.0.0.1:${target}`,
  );
  return `# Written by apps/web/bench/tls-proxy.ts for one bench:web run.
global
  maxconn 1000

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout tunnel 1h
  timeout http-keep-alive 10s
${frontends.join('\n')}
`;
}

function isListening(url: string): Promise<boolean> {
  // The certificate is this run's own: Node is not asked to trust it, only to see an answer.
  return new Promise((resolve) => {
    const req = request(url, { method: 'HEAD', rejectUnauthorized: false }, (res) => {
      res.resume();
      resolve((res.statusCode ?? 500) < 500);
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}

/** Starts HAProxy with a fresh local certificate in front of the given plain HTTP origins. */
export async function startTlsProxy(targets: string[]): Promise<TlsProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'nadi-bench-tls-'));
  const tls = makeCertificates(join(dir, 'tls'));
  const routes = await Promise.all(targets.map(async (target) => ({ listen: await freePort(), target: Number(new URL(target).port) })));
  const config = join(dir, 'haproxy.cfg');
  writeFileSync(config, tlsProxyConfig(tls.proxyPem, routes));
  runCommand('haproxy', ['-c', '-q', '-f', config]);
  const child = startChild('haproxy', 'haproxy', ['-db', '-f', config], { logFile: join(dir, 'haproxy.log') });
  const urls = routes.map(({ listen }) => `https://localhost:${listen}`);
  try {
    // An HAProxy that exited ends the wait at once (and fails below) rather than at the deadline.
    for (const url of urls) await waitFor(`HAProxy on ${url}`, async () => child.process.exitCode !== null || (await isListening(`${url}/`)), 15_000);
    if (child.process.exitCode !== null) throw new Error(`HAProxy exited with ${child.process.exitCode}`);
  } catch (error) {
    await stopChild(child);
    throw new Error(`HAProxy did not answer (${error instanceof Error ? error.message : String(error)}; log: ${join(dir, 'haproxy.log')})`, { cause: error });
  }
  return {
    urls,
    chromiumArg: `--ignore-certificate-errors-spki-list=${spkiPin(tls.certFile)}`,
    async stop() {
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
