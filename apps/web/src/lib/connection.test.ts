import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createConnection, probeDelayMaxMs, probeDelayMinMs, reportingFetch } from './connection.ts';

function setup(options: { isBrowserOnline?: boolean; probeAnswers?: boolean[] } = {}) {
  let isBrowserOnline = options.isBrowserOnline ?? true;
  const probeAnswers = [...(options.probeAnswers ?? [])];
  const probesAtMs: number[] = [];
  const start = Date.now();
  const connection = createConnection({
    isBrowserOnline: () => isBrowserOnline,
    probe: async () => {
      probesAtMs.push(Date.now() - start);
      return probeAnswers.shift() ?? false;
    },
    setTimer: (run, delayMs) => {
      const timer = setTimeout(run, delayMs);
      return () => clearTimeout(timer);
    },
  });
  const seen: boolean[] = [];
  connection.subscribe((isOnline) => seen.push(isOnline));
  const setBrowserOnline = (next: boolean) => {
    isBrowserOnline = next;
    connection.browserChanged(next);
  };
  return { connection, seen, probesAtMs, setBrowserOnline };
}

describe('connection', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("follows the browser's online and offline events", () => {
    const { connection, seen, setBrowserOnline } = setup();
    expect(connection.isOnline()).toBe(true);
    setBrowserOnline(false);
    setBrowserOnline(false);
    setBrowserOnline(true);
    expect(seen).toEqual([false, true]);
  });

  it('starts offline when the browser is, and waits for its event rather than probing', async () => {
    const { connection, probesAtMs, setBrowserOnline } = setup({ isBrowserOnline: false });
    expect(connection.isOnline()).toBe(false);
    connection.report(false);
    await vi.advanceTimersByTimeAsync(probeDelayMaxMs * 4);
    expect(probesAtMs).toEqual([]);
    setBrowserOnline(true);
    expect(connection.isOnline()).toBe(true);
  });

  it('goes offline when calls get no answer while the browser thinks it is online, and probes back with backoff', async () => {
    const { connection, seen, probesAtMs } = setup({ probeAnswers: [false, false, true] });
    connection.report(false);
    connection.report(false);
    expect(seen).toEqual([false]);
    await vi.advanceTimersByTimeAsync(probeDelayMinMs * 7);
    // 3 s, then 6 s later, then 12 s later: the third probe answers.
    expect(probesAtMs).toEqual([probeDelayMinMs, probeDelayMinMs * 3, probeDelayMinMs * 7]);
    expect(seen).toEqual([false, true]);
    await vi.advanceTimersByTimeAsync(probeDelayMaxMs * 4);
    expect(probesAtMs).toHaveLength(3);
  });

  it('stops probing as soon as any call gets an answer', async () => {
    const { connection, seen, probesAtMs } = setup();
    connection.report(false);
    connection.report(true);
    await vi.advanceTimersByTimeAsync(probeDelayMaxMs * 4);
    expect(probesAtMs).toEqual([]);
    expect(seen).toEqual([false, true]);
  });
});

describe('reportingFetch', () => {
  it('reports answers and thrown fetches, but not requests their caller aborted', async () => {
    const { connection, seen } = setup();
    const answering = reportingFetch(connection, async () => new Response('', { status: 503 }));
    const failing = reportingFetch(connection, async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(failing('/api/v1/x', {})).rejects.toThrow(TypeError);
    await answering('/api/v1/x', {});
    const controller = new AbortController();
    controller.abort();
    await expect(failing('/api/v1/x', { signal: controller.signal })).rejects.toThrow(TypeError);
    expect(seen).toEqual([false, true]);
    expect(connection.isOnline()).toBe(true);
  });
});
