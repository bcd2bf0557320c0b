import { describe, expect, it } from 'vitest';
import { createFrameBatch } from './frame-batch.ts';

function manualFrames() {
  const frames: (() => void)[] = [];
  return { schedule: (run: () => void) => void frames.push(run), runFrame: () => frames.splice(0).forEach((run) => run()), pending: () => frames.length };
}

describe('createFrameBatch', () => {
  it('applies the updates of a frame together, in order, with one frame scheduled', () => {
    const frames = manualFrames();
    const batch = createFrameBatch(frames.schedule);
    const seen: string[] = [];
    batch.add(() => seen.push('a'));
    batch.add(() => seen.push('b'));
    expect(frames.pending()).toBe(1);
    expect(seen).toEqual([]);
    frames.runFrame();
    expect(seen).toEqual(['a', 'b']);
  });

  it('keeps only the latest update of a key', () => {
    const frames = manualFrames();
    const batch = createFrameBatch(frames.schedule);
    const seen: string[] = [];
    batch.set('book', () => seen.push('book 1'));
    batch.add(() => seen.push('trade'));
    batch.set('book', () => seen.push('book 2'));
    frames.runFrame();
    expect(seen).toEqual(['trade', 'book 2']);
  });

  it('drops what is queued when cancelled, and schedules again afterwards', () => {
    const frames = manualFrames();
    const batch = createFrameBatch(frames.schedule);
    const seen: string[] = [];
    batch.add(() => seen.push('old'));
    batch.cancel();
    batch.add(() => seen.push('new'));
    frames.runFrame();
    expect(seen).toEqual(['new']);
  });
});
