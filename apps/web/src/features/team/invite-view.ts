import type { TeamInfo } from '@nadi/api/team';
import { formatBps } from '../../lib/percent-format.ts';

// The invite screen's logic apart from the canvas (docs/team.md "Invite"): what inviting earns, in the
// numbers in force, and how the poster leaves the phone (shared as a file where the browser can,
// else downloaded). Pure, so it is tested without a browser.

export interface RewardLine {
  key: string;
  params?: Record<string, string>;
}

export type InviteRates = Pick<TeamInfo, 'device_direct_bps' | 'share_level1_bps' | 'share_level2_bps' | 'levels'>;

/**
 * "How inviting works" in the numbers in force (team/info). Without them (still loading, or the
 * team figures failed) the screen says the same thing without numbers rather than guessing.
 */
export function inviteRewardLines(rates: InviteRates | undefined): RewardLine[] {
  if (!rates) return [{ key: 'invite.how.generic' }];
  const lines: RewardLine[] = [
    { key: 'invite.how.device', params: { rate: formatBps(rates.device_direct_bps) } },
    { key: 'invite.how.share', params: { level1: formatBps(rates.share_level1_bps), level2: formatBps(rates.share_level2_bps) } },
  ];
  const levels = [...rates.levels].sort((a, b) => a.level - b.level);
  const first = levels[0];
  const last = levels.at(-1);
  if (first && last) {
    lines.push({
      key: 'invite.how.community',
      params: { from: `V${first.level}`, to: `V${last.level}`, min: formatBps(first.rate_bps), max: formatBps(last.rate_bps) },
    });
  }
  return lines;
}

/** The parts of `navigator` the poster's sharing reads (absent in older and in-app browsers). */
export interface ShareCapable {
  share?: (data: ShareData) => Promise<void>;
  canShare?: (data?: ShareData) => boolean;
}

/**
 * Whether the poster can go to the phone's share sheet as an image: only when the browser says it
 * can share this very file. A browser with `share` but no `canShare` would share the text alone at
 * best, so it gets the download instead.
 */
export function canSharePosterFile(nav: ShareCapable | undefined, file: File): boolean {
  if (!nav || typeof nav.share !== 'function' || typeof nav.canShare !== 'function') return false;
  try {
    return nav.canShare({ files: [file] });
  } catch {
    return false;
  }
}

/** A share sheet the user closed is no failure; anything else is (and the image can still be saved). */
export function shareFailureKind(error: unknown): 'cancelled' | 'failed' {
  const name = typeof error === 'object' && error !== null && 'name' in error ? (error as { name: unknown }).name : null;
  return name === 'AbortError' ? 'cancelled' : 'failed';
}

/** The poster's file name: the brand and the code, nothing a file system could object to. */
export function posterFileName(code: string): string {
  const safe = code.replace(/[^A-Za-z0-9]/g, '');
  return safe ? `nadi-invite-${safe}.png` : 'nadi-invite.png';
}
