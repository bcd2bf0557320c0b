// `npm run bench:envelope -- --seconds 10 --connections 16`: requests per second of one read route
// (GET /api/v1/user/info, a signed-in user's profile: a session check and a few primary-key reads)
// plain and sealed, in one run, in one process (docs/envelope.md, docs/benchmarks.md "Envelope").
// Two apps on the embedded database (or TEST_DATABASE_URL's server with --pg 1), the same settings
// but ENCRYPTION, each with one signed-in user; autocannon drives each in turn for --seconds.
// Sealed requests are sealed before the run (each needs its own ephemeral key: the replay cache
// refuses a repeat), so the figure is the server's cost of opening, checking the replay cache and
// sealing the answer, not the client's. Every answer's status is counted; a sample of the sealed
// answers is opened to check they are what the plain route answers. Any answer but a 200 (a refusal
// by the abuse limits included) or a run with none ends the run with "FAILED" and a non-zero exit.
// `--smoke`: one round of 1 s at 2 connections (apps/server/bench/benches.test.ts runs it in
// `npm test`; its figures mean nothing).
import { cpus } from 'node:os';
import { EnvelopeClient } from '@nadi/envelope/client';
import { sealRequest, type ClientSeal } from '@nadi/envelope/envelope';
import { testEnvelopeKeys } from '../src/test/envelope.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../src/test/harness.ts';
import { newAccount, signIn } from '../src/test/sign-in.ts';
import { isSmoke, Problems } from './smoke.ts';
import { autocannon, type AutocannonRequest } from './trade-shared.ts';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} needs a whole number`);
  return value;
}
const options = {
  seconds: flag('seconds', isSmoke ? 1 : 10),
  connections: flag('connections', isSmoke ? 2 : 16),
  rounds: flag('rounds', isSmoke ? 1 : 3),
  pg: flag('pg', 0),
};
const problems = new Problems();
if (!options.pg) delete process.env.TEST_DATABASE_URL;
const path = '/api/v1/user/info';

async function listen(t: TestApp): Promise<string> {
  return t.app.listen({ host: '127.0.0.1', port: 0 });
}

/** Signs a new user in through sealed calls, as the phone does with the envelope on. */
async function sealedToken(base: string, envelope: EnvelopeClient): Promise<string> {
  const account = newAccount();
  const target = (await envelope.current())!;
  const fetchAt = (url: string, init: RequestInit) => fetch(`${base}${url}`, init);
  const message = (await envelope.call(target, { method: 'GET', path: '/api/v1/auth/loginMessage', input: { address: account.address } }, fetchAt)).body as {
    data: { message: string };
  };
  const sign_message = await account.signMessage({ message: message.data.message });
  const login = (
    await envelope.call(
      target,
      { method: 'POST', path: '/api/v1/auth/login', input: { address: account.address, message: message.data.message, sign_message, code: rootInviteCode } },
      fetchAt,
    )
  ).body as { data: { token: string } };
  return login.data.token;
}

async function drive(base: string, next: (req: AutocannonRequest) => AutocannonRequest): Promise<{ rps: number; statuses: Record<string, number> }> {
  const statuses: Record<string, number> = {};
  const run = autocannon({
    url: base,
    connections: options.connections,
    duration: options.seconds,
    requests: [{ method: 'GET', path, setupRequest: (req) => next(req) }],
  });
  run.on('response', (_client, statusCode) => {
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
  });
  const result = await run;
  const total = Object.values(statuses).reduce((a, b) => a + b, 0);
  problems.samples(total, `answers from ${base}`);
  const other = total - (statuses[200] ?? 0) + result.errors + result.timeouts;
  problems.check(
    other === 0,
    `${base}: ${other} requests not answered 200 (${JSON.stringify(statuses)}, ${result.errors} errors, ${result.timeouts} timeouts)`,
  );
  return { rps: total / result.duration, statuses };
}

async function main() {
  const plainApp = await createTestApp({ LOG_LEVEL: 'silent' });
  const sealedApp = await createTestApp({ ENCRYPTION: 'on', ENVELOPE_KEYS: testEnvelopeKeys, LOG_LEVEL: 'silent' });
  // Real time: the envelope's ±60 s window is checked against the server's clock.
  sealedApp.app.deps.now = () => new Date();
  const plainBase = await listen(plainApp);
  const sealedBase = await listen(sealedApp);
  const plainToken = await signIn(plainApp.app, newAccount(), rootInviteCode);
  const config = (
    (await (await fetch(`${sealedBase}/api/v1/common/config`)).json()) as { data: { encryption: { keys: { kid: string; public_key: string }[] } } }
  ).data.encryption;
  const envelope = new EnvelopeClient({ loadConfig: async () => ({ enabled: true, keys: config.keys }) });
  const sealedUserToken = await sealedToken(sealedBase, envelope);
  const key = config.keys[0]!;

  // Each round's sealed requests are sealed just before it (each is sent once, and must reach the
  // server within the ±60 s window), enough for --per-second requests a second.
  const perRound = options.seconds * flag('per-second', isSmoke ? 1_000 : 3_000);
  let forms: { body: string; seal: ClientSeal }[] = [];
  let sealMs = 0;
  const sealBatch = async (count: number) => {
    const started = performance.now();
    forms = [];
    for (let i = 0; i < count; i += 1) {
      const seal = await sealRequest({ kid: key.kid, publicKey: key.public_key, method: 'GET', path, payload: { input: {}, token: sealedUserToken } });
      forms.push({ body: new URLSearchParams({ ...seal.form }).toString(), seal });
    }
    sealMs = (performance.now() - started) / count;
  };
  await sealBatch(1);

  const plainRequest = (req: AutocannonRequest): AutocannonRequest => ({ ...req, method: 'GET', path, headers: { authorization: plainToken }, body: '' });
  let nextForm = 0;
  const sealedRequest = (req: AutocannonRequest): AutocannonRequest => {
    const form = forms[nextForm % forms.length]!;
    nextForm += 1;
    return { ...req, method: 'POST', path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.body };
  };

  // The sealed answer opens to what the plain route answers for its user.
  const sample = forms[0]!;
  const opened = (await sample.seal.openResponse(
    (
      (await (
        await fetch(`${sealedBase}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: sample.body })
      ).json()) as { sealed: string }
    ).sealed,
  )) as { code: number; data: { wallet_address: string } };
  if (opened.code !== 200 || !opened.data.wallet_address) throw new Error(`the sealed answer did not open to a profile: ${JSON.stringify(opened)}`);

  const rows: string[] = [];
  const ratios: number[] = [];
  for (let round = 1; round <= options.rounds; round += 1) {
    const plain = await drive(plainBase, plainRequest);
    await sealBatch(perRound);
    nextForm = 0;
    const sealed = await drive(sealedBase, sealedRequest);
    if (nextForm > forms.length) throw new Error('the sealed requests ran out (replays were sent): raise --per-second');
    const ratio = sealed.rps / plain.rps;
    ratios.push(ratio);
    rows.push(
      `| ${round} | ${plain.rps.toFixed(0)} | ${sealed.rps.toFixed(0)} | ${ratio.toFixed(2)} | ${JSON.stringify(plain.statuses)} | ${JSON.stringify(sealed.statuses)} |`,
    );
  }
  const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
  console.info(`# bench:envelope: GET ${path}, ${options.connections} connections, ${options.seconds} s per run, ${options.pg ? 'PostgreSQL' : 'PGlite'}`);
  console.info(`# machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, Node ${process.version}`);
  console.info(`# client-side sealing (not in the figures): ${sealMs.toFixed(3)} ms per request`);
  console.info('| round | plain req/s | sealed req/s | sealed / plain | plain statuses | sealed statuses |');
  console.info('|---|---|---|---|---|---|');
  for (const row of rows) console.info(row);
  console.info(`median sealed / plain: ${median.toFixed(2)} (goal ≥ 0.70)`);
  await plainApp.close();
  await sealedApp.close();
  problems.finish('bench:envelope');
}

await main();
