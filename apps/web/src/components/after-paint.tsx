import { Suspense, type ReactNode } from 'react';
import { useIdle } from '../lib/use-idle.ts';
import { whenPaintedAndIdle } from '../lib/when-idle.ts';

/**
 * A part of a screen that brings a chunk of its own (a list below the fold, a chart, viem), rendered
 * once what came with it is painted and the browser is idle: its download and its script start
 * after the screen's main figures are shown instead of competing with them for the network and the
 * main thread (issue 33). `fallback` holds its place until then and while its chunk downloads.
 */
export function AfterPaint({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  const isPainted = useIdle(whenPaintedAndIdle);
  return isPainted ? <Suspense fallback={fallback}>{children}</Suspense> : fallback;
}
