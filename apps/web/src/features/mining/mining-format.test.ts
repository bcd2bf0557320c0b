import { describe, expect, it } from 'vitest';
import { miningDefaults, unit } from '@nadi/economy/economy';
import type { MiningParamsData } from '@nadi/api/mining';
import { durationUnit, economyParams, formatBps, formatCountdown, formatShare, msUntil, signedPowerView } from './mining-format.ts';

describe('power on screen', () => {
  it('signs a change with + or − and its tone', () => {
    expect(signedPowerView('20.00')).toEqual({ text: '+20.00', tone: 'credit' });
    expect(signedPowerView('-10.00')).toEqual({ text: '\u221210.00', tone: 'debit' });
    expect(signedPowerView('0.00')).toEqual({ text: '0.00', tone: 'none' });
  });

  it('shows a share of the network with up to 6 decimals of a percent, cut', () => {
    expect(formatShare(1250n, 100_000n)).toBe('1.25%');
    expect(formatShare(1n, 300n)).toBe('0.333333%');
    expect(formatShare(5n, 0n)).toBe('0%');
  });
});

describe('formatBps', () => {
  it('writes basis points as a percentage without trailing zeros', () => {
    expect(formatBps(9000)).toBe('90%');
    expect(formatBps(9350)).toBe('93.5%');
    expect(formatBps(2500)).toBe('25%');
    expect(formatBps(25)).toBe('0.25%');
    expect(formatBps(10_000)).toBe('100%');
  });
});

describe('economyParams', () => {
  const wire: MiningParamsData = {
    epoch_seconds: 86_400,
    emission_base: '100000',
    halving_epochs: 730,
    immediate_bps: 2500,
    vesting_epochs: 180,
    destroy_power_per_usdt: '2.00',
    destroy_budget_multiplier: 3,
    destroy_min_usdt: '10',
    trial_power: '10.00',
    trial_epochs: 7,
    uptime_min_bps: 9000,
    heartbeat_seconds: 60,
    reference_window_seconds: 900,
  };

  it('turns the wire numbers into the formulas own units (base units, cP, bigint)', () => {
    const { heartbeatSkewSeconds: _skew, referenceWindowSeconds: _window, ...defaults } = miningDefaults;
    expect(economyParams(wire)).toEqual(defaults);
    expect(economyParams({ ...wire, emission_base: '0.5' }).emissionBase).toBe(unit / 2n);
  });

  it('throws on a malformed number instead of computing with a wrong one', () => {
    expect(() => economyParams({ ...wire, destroy_power_per_usdt: '2.005' })).toThrow();
  });
});

describe('the epoch countdown', () => {
  const endsAt = '2026-11-25T16:00:00.000Z';
  const end = Date.parse(endsAt);

  it('counts down to the end on this clock, never below zero', () => {
    expect(msUntil(endsAt, end - 61_000, 86_400)).toBe(61_000);
    expect(msUntil(endsAt, end + 5_000, 86_400)).toBe(0);
  });

  it('never shows more than one epoch (a phone clock behind the server)', () => {
    expect(msUntil(endsAt, end - 3_600_000, 600)).toBe(600_000);
    expect(msUntil('not a date', end, 600)).toBe(0);
  });

  it('formats as hh:mm:ss, rounding partial seconds up', () => {
    expect(formatCountdown(61_000)).toBe('00:01:01');
    expect(formatCountdown(86_400_000)).toBe('24:00:00');
    expect(formatCountdown(500)).toBe('00:00:01');
    expect(formatCountdown(0)).toBe('00:00:00');
  });

  it('names an epoch length in its largest whole unit', () => {
    expect(durationUnit(86_400)).toEqual({ value: 1, unit: 'day' });
    expect(durationUnit(7_200)).toEqual({ value: 2, unit: 'hour' });
    expect(durationUnit(600)).toEqual({ value: 10, unit: 'minute' });
    expect(durationUnit(90)).toEqual({ value: 90, unit: 'second' });
  });
});
