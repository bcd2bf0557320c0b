import { describe, expect, it } from 'vitest';
import { teamRewardLine, type TeamRewardLine } from '@nadi/api/team';
import { rewardExplainKey, rewardLineView } from './reward-line.ts';

function line(change: Partial<TeamRewardLine>): TeamRewardLine {
  return teamRewardLine.parse({
    id: 1,
    epoch: 41,
    kind: 'share_income',
    source: '0x12ab…cdef',
    source_depth: 1,
    source_amount: '12.5',
    rate_bps: 1000,
    lower_levels: '0',
    wanted: '1.25',
    amount: '1.25',
    created_at: '2026-11-26T00:00:05.000Z',
    ...change,
  });
}

describe('rewardLineView', () => {
  it('words share income from the rate and the referral’s mining income', () => {
    const view = rewardLineView(line({}));
    expect(view.explainKey).toBe('team.rewards.explain.shareLevel1');
    expect(view.params).toEqual({ rate: '10%', source: '0x12ab…cdef', amount: '12.5', lower: '0', wanted: '1.25' });
    expect(view.isShort).toBe(false);
    expect(rewardExplainKey({ kind: 'share_income', source_depth: 2 })).toBe('team.rewards.explain.shareLevel2');
  });

  it('words community income as the branch’s income minus what lower levels earn', () => {
    const view = rewardLineView(line({ kind: 'community_power_income', source_amount: '100', rate_bps: 600, lower_levels: '4', wanted: '2', amount: '2' }));
    expect(view.explainKey).toBe('team.rewards.explain.community');
    expect(view.params).toMatchObject({ rate: '6%', amount: '100', lower: '4', wanted: '2' });
  });

  it('words the device direct reward from the purchase and power level income from one’s own income', () => {
    expect(rewardLineView(line({ kind: 'device_direct_reward', source_amount: '500', wanted: '166.6666', amount: '166.6666' })).explainKey).toBe(
      'team.rewards.explain.deviceDirect',
    );
    const power = rewardLineView(line({ kind: 'power_level_income', source_depth: 0, rate_bps: 500, source_amount: '40', wanted: '2', amount: '2' }));
    expect(power.explainKey).toBe('team.rewards.explain.powerLevel');
    expect(power.params).toMatchObject({ rate: '5%', amount: '40', wanted: '2' });
  });

  it('tells wanted from paid when the referral pool ran short', () => {
    const view = rewardLineView(line({ wanted: '1.25', amount: '0.999999999999999999' }));
    expect(view.isShort).toBe(true);
    expect(view.wanted).toBe('1.25');
    // The display cuts, never rounds up, so a short payment never reads as the full amount.
    expect(view.paid).toBe('0.99999999');
  });

  it('groups large amounts and cuts the fraction at the digits every money screen shows', () => {
    const view = rewardLineView(line({ source_amount: '1234567.123456789123', wanted: '123456.7123456789123', amount: '123456.7123456789123' }));
    expect(view.params.amount).toBe('1,234,567.12345678');
    expect(view.paid).toBe('123,456.71234567');
  });
});
