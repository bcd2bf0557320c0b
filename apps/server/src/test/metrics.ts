// Reading /metrics in tests: one sample by name and its exact label set, so an assertion names the
// very series it means (a name alone matches whatever series happen to exist).
import type { FastifyInstance } from 'fastify';

export type Samples = (name: string, labels?: Record<string, string>) => number | undefined;

/** Scrapes the app's /metrics once; the answer looks samples up in that text. */
export async function scrape(app: FastifyInstance): Promise<Samples & { text: string }> {
  const res = await app.inject({ method: 'GET', url: '/metrics' });
  if (res.statusCode !== 200) throw new Error(`/metrics answered ${res.statusCode}`);
  const samples = parseSamples(res.body);
  const lookup = (name: string, labels: Record<string, string> = {}) => {
    const wanted = Object.entries(labels);
    const found = samples.find((s) => s.name === name && Object.keys(s.labels).length === wanted.length && wanted.every(([k, v]) => s.labels[k] === v));
    return found?.value;
  };
  return Object.assign(lookup, { text: res.body });
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1] as string] = pair[2] as string;
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return samples;
}

/** Scrapes until `isDone` holds for the samples, or fails at the deadline (never a fixed sleep). */
export async function scrapeUntil(app: FastifyInstance, isDone: (samples: Samples) => boolean, deadlineMs = 5_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    if (isDone(await scrape(app))) return;
    if (Date.now() > deadline) throw new Error(`/metrics did not reach the expected values within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
