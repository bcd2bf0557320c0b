import type { TeamRewardKind } from '@nadi/api/team';
import { teamQueryKey } from '../../../lib/invalidate-team.ts';

// Every query of the team feature starts with the key the account socket refreshes
// (lib/invalidate-team.ts): a settled epoch pays the rewards, a referral's purchase moves the figures.
export const teamKeys = {
  info: () => [teamQueryKey, 'info'] as const,
  /** The directs of a member of the caller's team, or the caller's own (`me`). */
  directs: (memberId: number | null) => [teamQueryKey, 'directs', memberId ?? 'me'] as const,
  ranking: () => [teamQueryKey, 'ranking'] as const,
  rewards: (kind: TeamRewardKind | undefined) => [teamQueryKey, 'rewards', kind ?? 'all'] as const,
};
