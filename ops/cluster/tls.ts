// TLS for the proxies this project starts (the cluster's HAProxy, bench:web's): a local CA made
// here with openssl, a certificate for localhost and 127.0.0.1 signed by it, and the SHA-256 pin of
// its public key, which Chromium is told to accept (--ignore-certificate-errors-spki-list) so that
// nothing else is trusted blindly.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCommand } from './processes.ts';

/** A local CA and the proxy's certificate for localhost and 127.0.0.1 (openssl). */
export function makeCertificates(tlsDir: string): { caFile: string; caPem: Buffer; proxyPem: string; certFile: string } {
  mkdirSync(tlsDir, { recursive: true, mode: 0o700 });
  const at = (name: string) => join(tlsDir, name);
  const days = '30';
  /** A new P-256 key, unencrypted (the folder is the cluster's own, mode 0700). */
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  runCommand('openssl', ['req', '-x509', ...newKey, '-keyout', at('ca.key'), '-out', at('ca.pem'), '-days', days, '-subj', '/CN=NADI cluster local CA']);
  runCommand('openssl', ['req', ...newKey, '-keyout', at('proxy.key'), '-out', at('proxy.csr'), '-subj', '/CN=localhost']);
  writeFileSync(at('proxy.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  runCommand('openssl', [
    'x509',
    '-req',
    '-in',
    at('proxy.csr'),
    '-CA',
    at('ca.pem'),
    '-CAkey',
    at('ca.key'),
    '-CAcreateserial',
    '-out',
    at('proxy.crt'),
    '-days',
    days,
    '-extfile',
    at('proxy.ext'),
  ]);
  const pem = runCommand('cat', [at('proxy.crt'), at('proxy.key')]);
  writeFileSync(at('proxy.pem'), pem, { mode: 0o600 });
  return { caFile: at('ca.pem'), caPem: Buffer.from(runCommand('cat', [at('ca.pem')])), proxyPem: at('proxy.pem'), certFile: at('proxy.crt') };
}

/** The base64 SHA-256 of a certificate's public key, for Chromium's SPKI pin. */
export function spkiPin(certFile: string): string {
  const key = runCommand('sh', [
    '-c',
    `openssl x509 -in '${certFile}' -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`,
  ]);
  return key.trim();
}
