import { describe, expect, it } from 'vitest';
import { currentMember, drillDown, goUp, goUpTo, memberTrailMax, parseTeamLocation, teamHref, teamSearch, type TeamLocation } from './team-location.ts';

function parse(search: string): TeamLocation {
  return parseTeamLocation(new URLSearchParams(search));
}

describe('parseTeamLocation', () => {
  it('reads the list and the members drilled into', () => {
    expect(parse('tab=directs&member=123')).toEqual({ tab: 'directs', trail: [123], isTrailCut: false });
    expect(parse('tab=directs&member=12,34,56')).toEqual({ tab: 'directs', trail: [12, 34, 56], isTrailCut: false });
    expect(parse('tab=ranking')).toEqual({ tab: 'ranking', trail: [], isTrailCut: false });
    expect(parse('tab=rewards')).toEqual({ tab: 'rewards', trail: [], isTrailCut: false });
  });

  it('shows the caller’s own directs by default', () => {
    expect(parse('')).toEqual({ tab: 'directs', trail: [], isTrailCut: false });
    expect(parse('tab=unknown')).toEqual({ tab: 'directs', trail: [], isTrailCut: false });
  });

  it('ignores a trail with anything but member ids rather than guessing', () => {
    for (const member of ['abc', '12,x', '0', '-3', '1.5', '12,,34', '1e3', '2147483648', '12,34,12', ' 12']) {
      expect(parse(`tab=directs&member=${encodeURIComponent(member)}`).trail, member).toEqual([]);
    }
  });

  it('keeps the last steps of a trail longer than the limit and says it was cut', () => {
    const ids = Array.from({ length: memberTrailMax + 5 }, (_, i) => i + 1);
    const location = parse(`member=${ids.join(',')}`);
    expect(location.trail).toEqual(ids.slice(5));
    expect(location.isTrailCut).toBe(true);
  });

  it('refuses an absurdly long trail outright', () => {
    const ids = Array.from({ length: memberTrailMax * 4 + 1 }, (_, i) => i + 1);
    expect(parse(`member=${ids.join(',')}`).trail).toEqual([]);
  });
});

describe('teamSearch', () => {
  it('writes the tab, and the trail while drilled down', () => {
    expect(teamSearch({ tab: 'directs', trail: [] })).toEqual({ tab: 'directs' });
    expect(teamSearch({ tab: 'directs', trail: [12, 34] })).toEqual({ tab: 'directs', member: '12,34' });
    // Switching to another list keeps where the directs were.
    expect(teamSearch({ tab: 'ranking', trail: [12] })).toEqual({ tab: 'ranking', member: '12' });
  });

  it('links with the trail readable in the address bar', () => {
    expect(teamHref({ tab: 'directs', trail: [] })).toBe('/team?tab=directs');
    expect(teamHref({ tab: 'directs', trail: [12, 34] })).toBe('/team?tab=directs&member=12,34');
    expect(parse(teamHref({ tab: 'directs', trail: [12, 34] }).split('?')[1] ?? '')).toEqual({ tab: 'directs', trail: [12, 34], isTrailCut: false });
  });

  it('round-trips through the URL', () => {
    const location: TeamLocation = { tab: 'directs', trail: [5, 9, 77], isTrailCut: false };
    expect(parseTeamLocation(new URLSearchParams(teamSearch(location)))).toEqual(location);
  });
});

describe('drilling down and going up', () => {
  const root = parse('tab=directs');

  it('goes down one member at a time and back up the same way', () => {
    const first = drillDown(root, 12);
    const second = drillDown(first, 34);
    expect(currentMember(root)).toBeNull();
    expect(currentMember(first)).toBe(12);
    expect(currentMember(second)).toBe(34);
    expect(goUp(second)).toEqual(first);
    expect(goUp(first)).toEqual(root);
  });

  it('jumps to any breadcrumb step', () => {
    const deep = parse('member=1,2,3,4');
    expect(goUpTo(deep, 0).trail).toEqual([]);
    expect(goUpTo(deep, 2).trail).toEqual([1, 2]);
  });

  it('opens the directs list when drilling from another tab', () => {
    expect(drillDown(parse('tab=ranking'), 8)).toEqual({ tab: 'directs', trail: [8], isTrailCut: false });
  });

  it('drops the oldest step past the limit, and going above a cut trail leads to the top', () => {
    let location = root;
    for (let id = 1; id <= memberTrailMax + 1; id += 1) location = drillDown(location, id);
    expect(location.trail).toHaveLength(memberTrailMax);
    expect(location.trail[0]).toBe(2);
    expect(location.isTrailCut).toBe(true);
    expect(goUpTo(location, 1)).toEqual({ tab: 'directs', trail: [2], isTrailCut: true });
    expect(goUp(goUpTo(location, 1))).toEqual(root);
  });
});
