import { describe, expect, it } from 'vitest';
import { canSharePosterFile, inviteRewardLines, posterFileName, shareFailureKind, type InviteRates } from './invite-view.ts';

describe('inviteRewardLines', () => {
  const rates: InviteRates = {
    device_direct_bps: 1_000,
    share_level1_bps: 1_000,
    share_level2_bps: 500,
    levels: [5, 3, 1, 2, 4].map((level) => ({ level, team_performance: '0', active_directs: level, rate_bps: level * 200 })),
  };

  it('names the rewards in the numbers in force', () => {
    expect(inviteRewardLines(rates)).toEqual([
      { key: 'invite.how.device', params: { rate: '10%' } },
      { key: 'invite.how.share', params: { level1: '10%', level2: '5%' } },
      { key: 'invite.how.community', params: { from: 'V1', to: 'V5', min: '2%', max: '10%' } },
    ]);
  });

  it('follows an operator change', () => {
    const lines = inviteRewardLines({ ...rates, device_direct_bps: 750, share_level2_bps: 250 });
    expect(lines[0]?.params).toEqual({ rate: '7.5%' });
    expect(lines[1]?.params).toEqual({ level1: '10%', level2: '2.5%' });
  });

  it('says it without numbers when the numbers are not known', () => {
    expect(inviteRewardLines(undefined)).toEqual([{ key: 'invite.how.generic' }]);
    expect(inviteRewardLines({ ...rates, levels: [] }).map((line) => line.key)).toEqual(['invite.how.device', 'invite.how.share']);
  });
});

describe('canSharePosterFile', () => {
  const file = new File([new Uint8Array([137, 80, 78, 71])], 'nadi-invite-AB12CD.png', { type: 'image/png' });
  const share = () => Promise.resolve();

  it('shares the image only when the browser says it can share this file', () => {
    expect(canSharePosterFile({ share, canShare: (data) => (data?.files?.length ?? 0) === 1 }, file)).toBe(true);
    expect(canSharePosterFile({ share, canShare: () => false }, file)).toBe(false);
  });

  it('downloads instead without the Web Share API, without canShare, or when canShare throws', () => {
    expect(canSharePosterFile(undefined, file)).toBe(false);
    expect(canSharePosterFile({}, file)).toBe(false);
    expect(canSharePosterFile({ share }, file)).toBe(false);
    expect(canSharePosterFile({ canShare: () => true }, file)).toBe(false);
    expect(
      canSharePosterFile(
        {
          share,
          canShare: () => {
            throw new TypeError('files not supported');
          },
        },
        file,
      ),
    ).toBe(false);
  });
});

describe('shareFailureKind', () => {
  it('treats a closed share sheet as cancelled, anything else as a failure', () => {
    expect(shareFailureKind(new DOMException('Share canceled', 'AbortError'))).toBe('cancelled');
    expect(shareFailureKind(new DOMException('Not allowed', 'NotAllowedError'))).toBe('failed');
    expect(shareFailureKind(new TypeError('bad'))).toBe('failed');
    expect(shareFailureKind('nope')).toBe('failed');
  });
});

describe('posterFileName', () => {
  it('names the file after the code, keeping only safe characters', () => {
    expect(posterFileName('AB12CD')).toBe('nadi-invite-AB12CD.png');
    expect(posterFileName('../x y')).toBe('nadi-invite-xy.png');
    expect(posterFileName('')).toBe('nadi-invite.png');
  });
});
