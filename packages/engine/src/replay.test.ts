// Determinism: the same commands give byte-identical events and the same state hash, and a
// snapshot taken mid-stream, serialized, restored and continued gives the same events as a run
// that never stopped.
import { describe, expect, it } from 'vitest';
import { MatchingEngine } from './engine.ts';
import { streamParams, streamSource } from './random-commands.ts';
import type { BookSnapshot, Command, EngineEvent } from './types.ts';

const PARAMS = streamParams('EXPIRE_MAKER');

function record(seed: number, commands: number): Command[] {
  const engine = new MatchingEngine(PARAMS);
  const source = streamSource(seed);
  const recorded: Command[] = [];
  const events: EngineEvent[] = [];
  for (let i = 0; i < commands; i++) {
    const command = source.next();
    recorded.push(command);
    events.length = 0;
    engine.execute(command, events);
    source.observe(events);
  }
  return recorded;
}

function replay(engine: MatchingEngine, commands: readonly Command[]): string[] {
  return commands.map((command) => {
    const events: EngineEvent[] = [];
    engine.execute(command, events);
    return JSON.stringify(events);
  });
}

describe('replay', () => {
  const commands = record(77, 30_000);

  it('gives byte-identical events and the same state hash', () => {
    const first = new MatchingEngine(PARAMS);
    const second = new MatchingEngine(PARAMS);
    const a = replay(first, commands);
    const b = replay(second, commands);
    expect(b.join('\n')).toBe(a.join('\n'));
    expect(second.stateHash()).toBe(first.stateHash());
    expect(a.join('').length).toBeGreaterThan(1_000_000);
    expect(first.orderCount).toBeGreaterThan(0);
  });

  it.each([1, 12_345, 29_999])('continues identically after snapshot and restore at command %i', (at) => {
    const straight = new MatchingEngine(PARAMS);
    const expected = replay(straight, commands);

    const before = new MatchingEngine(PARAMS);
    replay(before, commands.slice(0, at));
    const snapshot: BookSnapshot = JSON.parse(JSON.stringify(before.snapshot()));
    const restored = MatchingEngine.restore(snapshot);
    expect(restored.stateHash()).toBe(before.stateHash());
    expect(restored.seq).toBe(before.seq);

    const continued = replay(restored, commands.slice(at));
    expect(continued.join('\n')).toBe(expected.slice(at).join('\n'));
    expect(restored.stateHash()).toBe(straight.stateHash());
  });

  it('the state hash tells different books apart', () => {
    const a = new MatchingEngine(PARAMS);
    const b = new MatchingEngine(PARAMS);
    replay(a, commands.slice(0, 1_000));
    replay(b, commands.slice(0, 1_001));
    expect(a.stateHash()).not.toBe(b.stateHash());
  });
});
