// The team module's public surface (docs/team.md): purchase performance (the invite tree's
// aggregates) and the team API.
export { addPerformance, readPerformance, performanceKinds, type Performance, type PerformanceChange, type PerformanceKind } from './performance.ts';
export { teamModule } from './routes.ts';
