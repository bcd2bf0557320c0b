import { describe, expect, it } from 'vitest';
import { DepthFeed, DepthReplica, type DepthUpdate } from './depth-feed.ts';
import { MatchingEngine } from './engine.ts';
import { streamParams, streamSource } from './random-commands.ts';
import type { EngineEvent } from './types.ts';

describe('depth feed', () => {
  it('lets a client replica follow the book exactly, from a snapshot taken at any point', () => {
    const engine = new MatchingEngine(streamParams('EXPIRE_TAKER'));
    const plain = new MatchingEngine(streamParams('EXPIRE_TAKER'));
    const feed = new DepthFeed(engine);
    const source = streamSource(5);
    const early = new DepthReplica(feed.snapshot(Infinity));
    let late: DepthReplica | null = null;
    let updates = 0;
    let lastSeq = 0;
    for (let i = 0; i < 20_000; i++) {
      const command = source.next();
      const events: EngineEvent[] = [];
      const plainEvents: EngineEvent[] = [];
      engine.execute(command, events);
      plain.execute(command, plainEvents);
      // Watching the depth must not change what the engine does.
      expect(events).toEqual(plainEvents);
      source.observe(events);
      const update = feed.flush();
      if (update !== null) {
        updates++;
        expect(update.prevSeq).toBe(lastSeq);
        expect(update.seq).toBe(engine.seq);
        lastSeq = update.seq;
        expect(early.apply(update)).toBe('applied');
        if (late !== null) expect(late.apply(update)).toBe('applied');
      }
      if (i === 9_999) late = new DepthReplica(feed.snapshot(Infinity));
      if (i % 50 === 0 || i === 19_999) {
        const full = engine.depth(Infinity);
        expect(early.top(Infinity)).toEqual({ bids: full.bids, asks: full.asks });
        if (late !== null) expect(late.top(Infinity)).toEqual({ bids: full.bids, asks: full.asks });
      }
    }
    expect(updates).toBeGreaterThan(10_000);
  });

  it('reports a missed update as a gap and an old one as stale', () => {
    const engine = new MatchingEngine(streamParams('EXPIRE_TAKER'));
    const feed = new DepthFeed(engine);
    const source = streamSource(6);
    const replica = new DepthReplica(feed.snapshot(10));
    const updates: DepthUpdate[] = [];
    while (updates.length < 3) {
      const events: EngineEvent[] = [];
      engine.execute(source.next(), events);
      source.observe(events);
      const update = feed.flush();
      if (update !== null) updates.push(update);
    }
    const [first, second, third] = updates as [DepthUpdate, DepthUpdate, DepthUpdate];
    expect(replica.apply(first)).toBe('applied');
    expect(replica.apply(first)).toBe('stale');
    expect(replica.apply(third)).toBe('gap');
    expect(replica.seq).toBe(first.seq);
    expect(replica.apply(second)).toBe('applied');
    expect(replica.apply(third)).toBe('applied');
  });

  it('publishes nothing for commands that change no level', () => {
    const engine = new MatchingEngine(streamParams('EXPIRE_TAKER'));
    const feed = new DepthFeed(engine);
    engine.execute({ type: 'cancel', ts: 1, orderId: 42, userId: 1 }, []);
    expect(feed.flush()).toBeNull();
    expect(feed.snapshot(5)).toEqual({ seq: 0, bids: [], asks: [] });
  });
});
