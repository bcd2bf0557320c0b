// The team module's public surface: purchase performance (the invite tree's aggregates).
export { addPerformance, readPerformance, performanceKinds, type Performance, type PerformanceChange, type PerformanceKind } from './performance.ts';
