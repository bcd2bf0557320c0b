// Polling with a deadline, for tests that wait on something the code does in the background (a
// worker's round, a socket push, a server's state). A poll without a deadline hangs the suite when
// the awaited thing never happens; this one fails and says what it waited for and what it last saw.

export interface EventuallyOptions {
  timeoutMs?: number;
  intervalMs?: number;
}

/**
 * Reads `read` until `isDone` holds for its value and returns that value; throws after `timeoutMs`
 * with `what` and the last value read.
 */
export async function eventually<T>(what: string, read: () => T | Promise<T>, isDone: (value: T) => boolean, options: EventuallyOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const intervalMs = options.intervalMs ?? 25;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (isDone(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${timeoutMs} ms; last value ${describe(value)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

function describe(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
  return text === undefined ? String(value) : text.slice(0, 2000);
}
