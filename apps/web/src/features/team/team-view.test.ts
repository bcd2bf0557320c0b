import { describe, expect, it } from 'vitest';
import { teamInfo, type TeamInfo } from '@nadi/api/team';
import { levelView, rewardKindKey, rewardsByKind, rewardSums, shareBps, teamLevelLabel } from './team-view.ts';

/** team/info as the contract parses it: a V1 with 4,200 USDT of team performance and 1 active direct, on the way to V2. */
function info(change: Partial<TeamInfo> = {}): TeamInfo {
  return teamInfo.parse({
    level: 1,
    rate_bps: 200,
    next_level: {
      level: 2,
      team_performance: '10000',
      active_directs: 2,
      team_performance_missing: '5800',
      active_directs_missing: 1,
      progress_bps: 4200,
    },
    me_performance: '300',
    team_performance: '4200',
    zhi_num: 3,
    active_directs: 1,
    team_num: 7,
    rewards: [
      { kind: 'share_income', today: '1.25', total: '10.5' },
      { kind: 'device_direct_reward', today: '0', total: '33.000000000000000001' },
    ],
    levels: [1, 2, 3, 4, 5].map((level) => ({ level, team_performance: '1000', active_directs: level, rate_bps: level * 200 })),
    share_level1_bps: 1000,
    share_level2_bps: 500,
    device_direct_bps: 1000,
    power_level_bps: 500,
    power_level_min: 3,
    epoch: 41,
    ...change,
  });
}

describe('teamLevelLabel', () => {
  it('names levels as docs/economy.md does', () => {
    expect(teamLevelLabel(0)).toBe('V0');
    expect(teamLevelLabel(5)).toBe('V5');
  });
});

describe('shareBps', () => {
  it('is the share of the need met, rounded down, never above full', () => {
    expect(shareBps(4_200n, 10_000n)).toBe(4_200);
    expect(shareBps(1n, 3n)).toBe(3_333);
    expect(shareBps(10_000n, 10_000n)).toBe(10_000);
    expect(shareBps(25_000n, 10_000n)).toBe(10_000);
  });

  it('reads nothing as empty and a need of nothing as met', () => {
    expect(shareBps(0n, 10_000n)).toBe(0);
    expect(shareBps(5n, 0n)).toBe(10_000);
  });

  it('stays exact on amounts beyond a JS number (base units)', () => {
    const need = 1_000_000n * 10n ** 18n;
    expect(shareBps(need - 1n, need)).toBe(9_999);
  });
});

describe('levelView', () => {
  it('shows each condition of the next level with what is missing', () => {
    const view = levelView(info());
    expect(view.level).toBe(1);
    expect(view.rateBps).toBe(200);
    expect(view.next).toEqual({
      level: 2,
      progressBps: 4_200,
      performance: { have: '4200', need: '10000', missing: '5800', bps: 4_200, isMet: false },
      directs: { have: 1, need: 2, missing: 1, bps: 5_000, isMet: false },
      missingKind: 'both',
    });
  });

  it('says which condition is left when the other is met', () => {
    const onlyDirects = levelView(info({ team_performance: '12000.5' }));
    expect(onlyDirects.next?.performance).toMatchObject({ missing: '0', bps: 10_000, isMet: true });
    expect(onlyDirects.next?.missingKind).toBe('directs');

    const onlyPerformance = levelView(info({ active_directs: 4 }));
    expect(onlyPerformance.next?.directs).toMatchObject({ missing: 0, bps: 10_000, isMet: true });
    expect(onlyPerformance.next?.missingKind).toBe('performance');

    expect(levelView(info({ team_performance: '10000', active_directs: 2 })).next?.missingKind).toBe('none');
  });

  it('computes the missing performance in base units, to the last of 18 decimals', () => {
    const view = levelView(info({ team_performance: '9999.999999999999999999' }));
    expect(view.next?.performance.missing).toBe('0.000000000000000001');
    expect(view.next?.performance.bps).toBe(9_999);
  });

  it('keeps the overall bar within 0–100 %', () => {
    const base = info();
    const next = base.next_level!;
    expect(levelView({ ...base, next_level: { ...next, progress_bps: 12_000 } }).next?.progressBps).toBe(10_000);
    expect(levelView({ ...base, next_level: { ...next, progress_bps: -5 } }).next?.progressBps).toBe(0);
  });

  it('has no next level at V5', () => {
    expect(levelView(info({ level: 5, rate_bps: 1_000, next_level: null }))).toEqual({ level: 5, rateBps: 1_000, next: null });
  });

  it('refuses a malformed amount instead of drawing a bar from it', () => {
    expect(() => levelView(info({ team_performance: '12,000' }))).toThrow();
  });
});

describe('rewardsByKind', () => {
  it('lists the four kinds in the contract order, zero for a kind the server left out', () => {
    expect(rewardsByKind(info().rewards)).toEqual([
      { kind: 'device_direct_reward', today: '0', total: '33.000000000000000001' },
      { kind: 'share_income', today: '1.25', total: '10.5' },
      { kind: 'community_power_income', today: '0', total: '0' },
      { kind: 'power_level_income', today: '0', total: '0' },
    ]);
  });

  it('names each kind as the fund records do', () => {
    expect(rewardKindKey('community_power_income')).toBe('records.type.community_power_income');
  });
});

describe('rewardSums', () => {
  it('adds every kind as bigint, without losing the last base unit', () => {
    expect(rewardSums(info().rewards)).toEqual({ today: '1.25', total: '43.500000000000000001' });
  });

  it('is zero with no rewards', () => {
    expect(rewardSums([])).toEqual({ today: '0', total: '0' });
  });
});
