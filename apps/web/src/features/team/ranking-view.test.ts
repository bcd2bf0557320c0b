import { describe, expect, it } from 'vitest';
import { rankingData, type RankingData } from '@nadi/api/team';
import { medalOf, myRankView, rankText, weekCountdown } from './ranking-view.ts';

function ranking(me: RankingData['me'], ranks: number[] = [1, 2, 3, 4]): RankingData {
  return rankingData.parse({
    week: 2917,
    starts_at: '2025-11-24T00:00:00.000Z',
    ends_at: '2025-12-01T00:00:00.000Z',
    list: ranks.map((rank) => ({ rank, address: `0x00${rank}…beef`, amount: String(1000 - rank), level: 1 })),
    me,
  });
}

describe('medalOf and rankText', () => {
  it('gives medals to the first three only', () => {
    expect([1, 2, 3, 4, 100].map(medalOf)).toEqual(['gold', 'silver', 'bronze', null, null]);
  });

  it('writes a place as #n', () => {
    expect(rankText(4)).toBe('#4');
    expect(rankText(1234)).toBe('#1234');
  });
});

describe('myRankView', () => {
  it('shows the caller’s place in the list', () => {
    expect(myRankView(ranking({ rank: 2, amount: '998' }))).toEqual({ kind: 'ranked', rank: 2, text: '#2', medal: 'silver', amount: '998', isTop: true });
  });

  it('shows a place outside the top 100 too', () => {
    expect(myRankView(ranking({ rank: 150, amount: '3' }))).toMatchObject({ kind: 'ranked', text: '#150', medal: null, isTop: false });
  });

  it('says "not ranked" with nothing added this week', () => {
    expect(myRankView(ranking({ rank: null, amount: '0' }))).toEqual({ kind: 'unranked', amount: '0' });
  });
});

describe('weekCountdown', () => {
  const endsAt = '2025-12-01T00:00:00.000Z';
  const endsMs = Date.parse(endsAt);

  it('counts days and a clock face down to the week’s end', () => {
    const left = ((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000;
    expect(weekCountdown(endsAt, endsMs - left)).toEqual({ isEnded: false, days: 2, time: '03:04:05' });
    expect(weekCountdown(endsAt, endsMs - 999)).toEqual({ isEnded: false, days: 0, time: '00:00:00' });
  });

  it('ends at ends_at, and on an unreadable date', () => {
    expect(weekCountdown(endsAt, endsMs)).toEqual({ isEnded: true });
    expect(weekCountdown(endsAt, endsMs + 60_000)).toEqual({ isEnded: true });
    expect(weekCountdown('not a date', 0)).toEqual({ isEnded: true });
  });
});
