// Differential test: the engine and the naive reference matcher must produce byte-identical
// event streams (and equal depth and state hashes) on the same 100,000-command random stream.
import { describe, expect, it } from 'vitest';
import { MatchingEngine } from './engine.ts';
import { ReferenceMatcher } from './reference-matcher.ts';
import { streamParams, streamSource } from './random-commands.ts';
import type { EngineEvent, SelfTradePrevention } from './types.ts';

function compare(seed: number, stp: SelfTradePrevention, commands: number): { events: number; trades: number } {
  const params = streamParams(stp);
  const engine = new MatchingEngine(params);
  const reference = new ReferenceMatcher(params);
  const source = streamSource(seed);
  let events = 0;
  let trades = 0;
  for (let i = 0; i < commands; i++) {
    const command = source.next();
    const fromEngine: EngineEvent[] = [];
    const fromReference: EngineEvent[] = [];
    engine.execute(command, fromEngine);
    reference.execute(command, fromReference);
    const a = JSON.stringify(fromEngine);
    const b = JSON.stringify(fromReference);
    // Compare strings first: expect().toEqual on every command would dominate the run time.
    if (a !== b) expect({ i, command, events: fromEngine }).toEqual({ i, command, events: fromReference });
    if (i % 97 === 0) expect(engine.depth(5)).toEqual(reference.depth(5));
    if (i % 10_000 === 0) expect(engine.stateHash()).toBe(reference.stateHash());
    source.observe(fromEngine);
    events += fromEngine.length;
    for (const e of fromEngine) if (e.type === 'trade') trades++;
  }
  expect(JSON.stringify(engine.snapshot())).toBe(JSON.stringify(reference.snapshot()));
  return { events, trades };
}

describe('engine versus reference matcher', () => {
  it.each([
    [1, 'EXPIRE_MAKER'],
    [2, 'EXPIRE_TAKER'],
    [3, 'EXPIRE_BOTH'],
  ] as const)('identical event streams on 100,000 commands (seed %i, %s)', (seed, stp) => {
    const { events, trades } = compare(seed, stp, 100_000);
    // The stream must be busy enough to mean something: these are about a third of what it makes.
    expect(trades).toBeGreaterThan(15_000);
    expect(events).toBeGreaterThan(150_000);
  });
});
