// Where the team screen is, kept in the URL so a reload, a shared link or the back button returns
// to it: the list shown (?tab=) and, in the directs list, the members drilled into from the top
// (?member=12,34: the directs of 34, reached through 12). Pure, so the parsing is tested.
import { parseRouteId } from '../../lib/route-id.ts';

export const teamTabs = ['directs', 'ranking', 'rewards'] as const;
export type TeamTab = (typeof teamTabs)[number];

/** User ids the contract accepts (`user/zhiList`'s user_id). */
export const memberIdMax = 2 ** 31 - 1;

/**
 * The trail the URL keeps at most. A team can be 1,000 levels deep; beyond this many the oldest
 * steps are dropped, the breadcrumb shows "…" for them, and going up past the first kept one leads
 * back to the caller's own directs.
 */
export const memberTrailMax = 30;

export interface TeamLocation {
  tab: TeamTab;
  /** Member ids from the first one drilled into down to the one whose directs are shown; empty: the caller's own. */
  trail: number[];
  /** Whether steps were dropped before the trail (a trail longer than memberTrailMax arrived). */
  isTrailCut: boolean;
}

function parseTab(value: string | null): TeamTab {
  return teamTabs.find((tab) => tab === value) ?? 'directs';
}

/**
 * Reads ?tab= and ?member=. An unknown tab is the directs list; a trail with anything but member
 * ids (or a member twice: a tree has no cycles) is ignored as a whole, showing the caller's own
 * directs, rather than guessing which part was meant.
 */
export function parseTeamLocation(params: URLSearchParams): TeamLocation {
  const tab = parseTab(params.get('tab'));
  const raw = params.get('member');
  if (!raw) return { tab, trail: [], isTrailCut: false };
  const parts = raw.split(',');
  // Bounded before parsing: a pasted URL of any length costs no more than this.
  if (parts.length > memberTrailMax * 4) return { tab, trail: [], isTrailCut: false };
  const ids = parts.map((part) => parseRouteId(part, memberIdMax));
  if (ids.some((id) => id === null)) return { tab, trail: [], isTrailCut: false };
  const trail = ids as number[];
  if (new Set(trail).size !== trail.length) return { tab, trail: [], isTrailCut: false };
  const isTrailCut = trail.length > memberTrailMax;
  return { tab, trail: isTrailCut ? trail.slice(-memberTrailMax) : trail, isTrailCut };
}

/** The query string of a location: the tab always, the trail while drilled down. */
export function teamSearch(location: Pick<TeamLocation, 'tab' | 'trail'>): Record<string, string> {
  return location.trail.length > 0 ? { tab: location.tab, member: location.trail.join(',') } : { tab: location.tab };
}

/**
 * The link of a place on the team screen. Written by hand rather than with URLSearchParams, which
 * would encode the trail's commas (member=12%2C34): the parts are a fixed tab name and digits.
 */
export function teamHref(location: Pick<TeamLocation, 'tab' | 'trail'>): string {
  const search = teamSearch(location);
  return `/team?tab=${search.tab}${search.member ? `&member=${search.member}` : ''}`;
}

/** The member whose directs are shown (the last of the trail), or null for the caller's own. */
export function currentMember(location: Pick<TeamLocation, 'trail'>): number | null {
  return location.trail.at(-1) ?? null;
}

/** One level down: the directs of `memberId`, a direct of the member shown now. */
export function drillDown(location: TeamLocation, memberId: number): TeamLocation {
  const trail = [...location.trail, memberId];
  const isCut = trail.length > memberTrailMax;
  return { tab: 'directs', trail: isCut ? trail.slice(-memberTrailMax) : trail, isTrailCut: location.isTrailCut || isCut };
}

/**
 * Back to the breadcrumb's step `index` (0: the caller's own directs, i: the trail's i-th member).
 * Going above a cut trail's first kept step leads to the caller's own directs.
 */
export function goUpTo(location: TeamLocation, index: number): TeamLocation {
  if (index <= 0) return { tab: 'directs', trail: [], isTrailCut: false };
  return { tab: 'directs', trail: location.trail.slice(0, index), isTrailCut: location.isTrailCut };
}

/** One level up from where the list is. */
export function goUp(location: TeamLocation): TeamLocation {
  return location.trail.length <= 1 ? goUpTo(location, 0) : goUpTo(location, location.trail.length - 1);
}
