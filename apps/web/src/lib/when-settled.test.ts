import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { settledMaxMs, settledQuietMs, whenQueriesSettled } from './when-settled.ts';

describe('whenQueriesSettled', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("waits for the screen's calls, then a quiet moment", async () => {
    const client = new QueryClient();
    const run = vi.fn();
    whenQueriesSettled(client, run);
    let answer: (value: string) => void = () => undefined;
    void client.fetchQuery({ queryKey: ['wallet'], queryFn: () => new Promise<string>((resolve) => (answer = resolve)) });
    await vi.advanceTimersByTimeAsync(settledQuietMs * 2);
    expect(run).not.toHaveBeenCalled();
    answer('in');
    await vi.advanceTimersByTimeAsync(settledQuietMs - 1);
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledOnce();
  });

  it('runs at the latest after its deadline when something keeps fetching, and once only', async () => {
    const client = new QueryClient();
    const run = vi.fn();
    void client.fetchQuery({ queryKey: ['live'], queryFn: () => new Promise<never>(() => {}) });
    whenQueriesSettled(client, run);
    await vi.advanceTimersByTimeAsync(settledMaxMs);
    expect(run).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(settledMaxMs);
    expect(run).toHaveBeenCalledOnce();
  });
});
