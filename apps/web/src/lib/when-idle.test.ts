import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenPaintedAndIdle } from './when-idle.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('whenPaintedAndIdle', () => {
  it('runs after the next frame, a task after it and an idle period, in that order', () => {
    vi.useFakeTimers();
    const frames: (() => void)[] = [];
    const idles: { run: () => void; timeout: number | undefined }[] = [];
    vi.stubGlobal('requestAnimationFrame', (run: () => void) => frames.push(run));
    vi.stubGlobal('requestIdleCallback', (run: () => void, options?: { timeout?: number }) => idles.push({ run, timeout: options?.timeout }));
    const run = vi.fn();
    whenPaintedAndIdle(run);
    // Nothing before the frame that shows what was just rendered.
    expect(idles).toHaveLength(0);
    vi.runAllTimers();
    expect(idles).toHaveLength(0);
    frames.splice(0).forEach((frame) => frame());
    // The frame's own callback is before its paint: the idle wait starts in a task after it.
    expect(idles).toHaveLength(0);
    vi.runAllTimers();
    expect(idles).toEqual([{ run: expect.any(Function), timeout: 2000 }]);
    expect(run).not.toHaveBeenCalled();
    idles[0]!.run();
    expect(run).toHaveBeenCalledOnce();
  });

  it('without requestIdleCallback (Safari), runs in a task after the frame after that', () => {
    vi.useFakeTimers();
    const frames: (() => void)[] = [];
    vi.stubGlobal('requestAnimationFrame', (run: () => void) => frames.push(run));
    vi.stubGlobal('requestIdleCallback', undefined);
    const run = vi.fn();
    whenPaintedAndIdle(run);
    frames.splice(0).forEach((frame) => frame());
    vi.runAllTimers();
    expect(run).not.toHaveBeenCalled();
    frames.splice(0).forEach((frame) => frame());
    vi.runAllTimers();
    expect(run).toHaveBeenCalledOnce();
  });
});
