// The weekly ranking (user/ranking) on screen: medals for the first three, the caller's own place
// and the countdown to the week's end on the phone's clock. Pure, so it is tested without a clock.
import type { RankingData } from '@nadi/api/team';
import { pad2, parseDeadline, remainingUntil } from '../../lib/countdown.ts';

export type Medal = 'gold' | 'silver' | 'bronze';

const medals: Record<number, Medal> = { 1: 'gold', 2: 'silver', 3: 'bronze' };

/** The medal of ranks 1–3, none below. */
export function medalOf(rank: number): Medal | null {
  return medals[rank] ?? null;
}

/** How a rank is written in the list and on the caller's card: "#7". */
export function rankText(rank: number): string {
  return `#${rank}`;
}

export type MyRankView =
  /** Ranked this week; `isTop` when the place is in the list shown. */
  | { kind: 'ranked'; rank: number; text: string; medal: Medal | null; amount: string; isTop: boolean }
  /** Nothing added this week: no place to show. */
  | { kind: 'unranked'; amount: string };

export function myRankView(ranking: Pick<RankingData, 'me' | 'list'>): MyRankView {
  const { rank, amount } = ranking.me;
  if (rank === null) return { kind: 'unranked', amount };
  return { kind: 'ranked', rank, text: rankText(rank), medal: medalOf(rank), amount, isTop: ranking.list.some((entry) => entry.rank === rank) };
}

export type WeekCountdown = { isEnded: true } | { isEnded: false; days: number; time: string };

/**
 * Time left in the ranking week (to `ends_at`), as days and hh:mm:ss. Unreadable dates read as
 * ended, so the screen asks for the ranking again instead of counting toward nothing.
 */
export function weekCountdown(endsAt: string, nowMs: number): WeekCountdown {
  const endsMs = parseDeadline(endsAt);
  if (endsMs === null) return { isEnded: true };
  const left = remainingUntil(endsMs, nowMs);
  if (left.isEnded) return { isEnded: true };
  return { isEnded: false, days: left.days, time: `${pad2(left.hours)}:${pad2(left.minutes)}:${pad2(left.seconds)}` };
}
