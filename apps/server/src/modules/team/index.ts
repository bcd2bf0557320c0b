// The team module's public surface (docs/team.md): purchase performance (the invite tree's
// aggregates) and the team API.
export { addPerformance, readPerformance, performanceKinds, type Performance, type PerformanceChange, type PerformanceKind } from './performance.ts';
export { readTeamFigures, noFigures, type TeamFigures } from './figures.ts';
export { readRanking, type Ranking, type RankingRow } from './ranking.ts';
export { teamModule } from './routes.ts';
