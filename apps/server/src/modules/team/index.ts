// The team module's public surface (docs/team.md): the invite tree's aggregates (registrations and
// purchases), the purchase-time reward lines and the team API.
export {
  addPerformance,
  addTeamMember,
  foldBatch,
  foldPerformance,
  readPerformance,
  performanceKinds,
  type Performance,
  type PerformanceChange,
  type PerformanceKind,
} from './performance.ts';
export { recordPurchaseClawback, recordPurchaseReward, type PurchaseRewardClawback, type PurchaseRewardLine } from './reward-lines.ts';
export { readTeamFigures, noFigures, type TeamFigures } from './figures.ts';
export { readOwnRank, readRanking, readRankingTop, type Ranking, type RankingRow } from './ranking.ts';
export { teamModule } from './routes.ts';
export { buildRankMarks, foldRankMoves, rankClassMax, rankMarkEvery, runRankRound, type RankRound } from './rank-marks.ts';
export { startTeamRankJob, teamRankJobIntervalMs, type TeamRankJob } from './job.ts';
export { startTeamJob, teamFoldJobIntervalMs, type TeamJob } from './fold-job.ts';
export { performanceRow, teamEpochsPaid } from './console-repo.ts';
export { teamIncomeOfEpoch, userTeamIncomeOfEpoch } from './transparency-repo.ts';
