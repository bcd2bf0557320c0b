// A replica that asked for the book and got no answer (the request or the snapshot lost with Redis,
// or no writer yet) asks again until one comes, then stops asking; a gap starts it again.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocalBus, type AppEvent } from '../../lib/event-bus.ts';
import { BookReplica, snapshotRetryMs } from './book-replica.ts';

const symbol = 'NADI-USDT';

describe('BookReplica asking for the book', () => {
  let bus: LocalBus;
  let requests: number;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    bus = new LocalBus();
    requests = 0;
    bus.subscribe((e: AppEvent) => {
      if (e.type === 'book_request') requests += 1;
    });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const snapshot = (seq: number) => bus.publish({ type: 'book_snapshot', symbol, reason: 'request', seq, bids: [['0.5', '10']], asks: [] });

  it('asks again every few seconds until a snapshot comes, and not after', () => {
    const replica = new BookReplica(bus, symbol);
    expect([replica.isReady, requests]).toEqual([false, 1]);
    vi.advanceTimersByTime(snapshotRetryMs - 1);
    expect(requests).toBe(1);
    vi.advanceTimersByTime(1);
    expect(requests).toBe(2);
    vi.advanceTimersByTime(snapshotRetryMs);
    expect(requests).toBe(3);
    snapshot(5);
    expect(replica.isReady).toBe(true);
    vi.advanceTimersByTime(snapshotRetryMs * 5);
    expect(requests).toBe(3);
    // An update that does not chain: not ready, and asking again until the next snapshot.
    bus.publish({ type: 'depth', symbol, seq: 9, prevSeq: 8, ts: 0, bids: [], asks: [] });
    expect([replica.isReady, requests]).toEqual([false, 4]);
    vi.advanceTimersByTime(snapshotRetryMs);
    expect(requests).toBe(5);
    snapshot(9);
    vi.advanceTimersByTime(snapshotRetryMs * 5);
    expect([replica.isReady, requests]).toEqual([true, 5]);
    replica.close();
  });

  it('stops asking once closed', () => {
    const replica = new BookReplica(bus, symbol);
    replica.close();
    vi.advanceTimersByTime(snapshotRetryMs * 5);
    expect(requests).toBe(1);
  });
});
