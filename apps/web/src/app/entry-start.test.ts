import { describe, expect, it, vi } from 'vitest';
import type { FeatureRoute } from '../lib/feature.ts';
import { entryRoute, startEntry, type EntryStartDeps } from './entry-start.ts';

const screen = () => Promise.resolve({ default: () => null });
const routes: FeatureRoute[] = [
  { path: '/', isAuth: false },
  { path: '/wallet', load: vi.fn(screen), isAuth: true },
  { path: '/store/product/:id', load: vi.fn(screen), isAuth: false },
];

function deps(isUserMissing: boolean, hasSession = isUserMissing): EntryStartDeps & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    startScreen: (route) => route.load?.() ?? Promise.resolve(),
    startEnvelope: () => (calls.push('envelope'), Promise.resolve()),
    isUserMissing: () => isUserMissing,
    prefetchUser: () => (calls.push('user'), Promise.reject(new Error('401'))),
    hasSession: () => hasSession,
  };
}

describe('entryRoute', () => {
  it('matches the URL as the router does, parameters included', () => {
    expect(entryRoute('/wallet', routes)?.path).toBe('/wallet');
    expect(entryRoute('/store/product/7', routes)?.path).toBe('/store/product/:id');
    expect(entryRoute('/', routes)?.path).toBe('/');
    expect(entryRoute('/nowhere', routes)).toBeUndefined();
  });
});

describe('startEntry', () => {
  it("downloads the entry route's screen and the envelope before React renders", () => {
    const d = deps(false);
    expect(startEntry('/wallet', routes, d)?.path).toBe('/wallet');
    expect(routes[1]!.load).toHaveBeenCalledOnce();
    expect(d.calls).toEqual(['envelope']);
  });

  it("loads a stored session's missing user beside them; a failure is the guard's and the API client's to handle", async () => {
    const d = deps(true);
    startEntry('/store/product/7', routes, d);
    expect(routes[2]!.load).toHaveBeenCalledOnce();
    expect(d.calls).toEqual(['envelope', 'user']);
    await Promise.resolve();
  });

  it("starts the screen's first reads beside its code, a session's screen only with a session", () => {
    const prefetch = vi.fn(() => Promise.reject(new Error('offline')));
    const withReads: FeatureRoute[] = [
      { path: '/store', load: vi.fn(screen), prefetch, isAuth: false },
      { path: '/wallet', load: vi.fn(screen), prefetch, isAuth: true },
    ];
    startEntry('/store', withReads, deps(false));
    expect(prefetch).toHaveBeenCalledTimes(1);
    startEntry('/wallet', withReads, deps(false, false));
    expect(prefetch).toHaveBeenCalledTimes(1);
    startEntry('/wallet', withReads, deps(false, true));
    expect(prefetch).toHaveBeenCalledTimes(2);
  });

  it('leaves the envelope to later on home, which paints without a sealed call', () => {
    const d = deps(false);
    expect(startEntry('/', routes, d)?.path).toBe('/');
    expect(d.calls).toEqual([]);
  });
});
