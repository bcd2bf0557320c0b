import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { createQueryPersistence, persistMaxAgeMs, type QueryPersistDeps } from './query-persist.ts';

const alice = '0xAAAA000000000000000000000000000000000001';
const bob = '0xBBBB000000000000000000000000000000000002';

function fakeSession(walletAddress: string | null) {
  let state = { token: walletAddress ? `token-${walletAddress}` : null, walletAddress };
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Signs in as `address`, or out with null; listeners hear it as the session store tells them. */
    become(address: string | null) {
      state = { token: address ? `token-${address}` : null, walletAddress: address };
      for (const listener of listeners) listener();
    },
  };
}

/** One tab: a client, its session and the sessionStorage they share across reloads. */
function tab(storage: { value: string | null }, session: ReturnType<typeof fakeSession>, now = { ms: 1_000_000 }, version = 'build-1') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });
  const deps: QueryPersistDeps = {
    client,
    read: () => storage.value,
    write: (value) => (storage.value = value),
    remove: () => (storage.value = null),
    session,
    now: () => now.ms,
    version,
    scheduleSave: () => undefined,
  };
  return { client, persistence: createQueryPersistence(deps) };
}

describe('query cache persistence (issue 33)', () => {
  it("shows the same account's cache after a reload, money as bigint included, and never the config", () => {
    const storage = { value: null as string | null };
    const first = tab(storage, fakeSession(alice));
    first.client.setQueryData(['wallet', 'assets'], { usdt: '12.5', units: 125n });
    first.client.setQueryData(['config'], { encryption: { enabled: true } });
    first.persistence.save();

    const reloaded = tab(storage, fakeSession(alice));
    expect(reloaded.persistence.restore()).toBe(true);
    expect(reloaded.client.getQueryData(['wallet', 'assets'])).toEqual({ usdt: '12.5', units: 125n });
    expect(reloaded.client.getQueryData(['config'])).toBeUndefined();
  });

  it('marks what it restored stale even when recent, so a screen shows it and fetches it again on mount', () => {
    const storage = { value: null as string | null };
    const first = tab(storage, fakeSession(alice));
    first.client.setQueryData(['wallet', 'assets'], { usdt: '1' });
    first.persistence.save();
    const reloaded = tab(storage, fakeSession(alice));
    reloaded.persistence.restore();
    const result = new QueryObserver(reloaded.client, { queryKey: ['wallet', 'assets'], staleTime: 30_000 }).getCurrentResult();
    expect(result.data).toEqual({ usdt: '1' });
    expect(result.isStale).toBe(true);
  });

  it('keeps the time the data was read', () => {
    const storage = { value: null as string | null };
    const now = { ms: 1_000_000 };
    const first = tab(storage, fakeSession(alice), now);
    first.client.setQueryData(['wallet', 'assets'], { usdt: '1' }, { updatedAt: Date.now() - 60_000 });
    first.persistence.save();
    now.ms += 60_000;
    const reloaded = tab(storage, fakeSession(alice), now);
    reloaded.persistence.restore();
    expect(reloaded.client.getQueryState(['wallet', 'assets'])?.dataUpdatedAt).toBeLessThanOrEqual(Date.now() - 60_000);
    expect(new QueryObserver(reloaded.client, { queryKey: ['wallet', 'assets'], staleTime: 30_000 }).getCurrentResult().isStale).toBe(true);
  });

  it("does not show another account's cache after a reload in the same tab", () => {
    const storage = { value: null as string | null };
    const first = tab(storage, fakeSession(alice));
    first.client.setQueryData(['wallet', 'assets'], { usdt: 'alice' });
    first.persistence.save();

    const asBob = tab(storage, fakeSession(bob));
    expect(asBob.persistence.restore()).toBe(false);
    expect(asBob.client.getQueryData(['wallet', 'assets'])).toBeUndefined();
    expect(storage.value).toBeNull();

    const signedOut = tab({ value: storage.value }, fakeSession(null));
    expect(signedOut.persistence.restore()).toBe(false);
  });

  it('drops the account cache, in memory and stored, when another account signs in on the page', () => {
    const storage = { value: null as string | null };
    const session = fakeSession(alice);
    const { client, persistence } = tab(storage, session);
    client.setQueryData(['wallet', 'assets'], { usdt: 'alice' });
    client.setQueryData(['config'], { encryption: { enabled: false } });
    persistence.save();
    expect(storage.value).not.toBeNull();

    session.become(bob);
    expect(client.getQueryData(['wallet', 'assets'])).toBeUndefined();
    expect(client.getQueryData(['config'])).toEqual({ encryption: { enabled: false } });
    expect(storage.value).toBeNull();
  });

  it("resets a query a screen is showing, so the next account never sees the last one's data", () => {
    const storage = { value: null as string | null };
    const session = fakeSession(alice);
    const { client } = tab(storage, session);
    client.setQueryData(['user', 'info'], { name: 'alice' });
    const observer = new QueryObserver(client, { queryKey: ['user', 'info'], queryFn: () => new Promise<never>(() => {}) });
    const stop = observer.subscribe(() => undefined);
    session.become(bob);
    expect(client.getQueryData(['user', 'info'])).toBeUndefined();
    expect(observer.getCurrentResult().data).toBeUndefined();
    stop();
  });

  it('drops the account cache when the session ends (sign-out or a 401), and stores nothing of it afterwards', () => {
    const storage = { value: null as string | null };
    const session = fakeSession(alice);
    const { client, persistence } = tab(storage, session);
    client.setQueryData(['wallet', 'assets'], { usdt: 'alice' });
    persistence.save();

    session.become(null);
    expect(storage.value).toBeNull();
    expect(client.getQueryData(['wallet', 'assets'])).toBeUndefined();
    client.setQueryData(['store', 'products'], ['public']);
    persistence.save();
    const reloaded = tab(storage, fakeSession(null));
    expect(reloaded.persistence.restore()).toBe(true);
    expect(reloaded.client.getQueryData(['store', 'products'])).toEqual(['public']);
    expect(reloaded.client.getQueryData(['wallet', 'assets'])).toBeUndefined();
  });

  it('keeps public data read while signed out when signing in', () => {
    const storage = { value: null as string | null };
    const session = fakeSession(null);
    const { client } = tab(storage, session);
    client.setQueryData(['store', 'products'], ['public']);
    session.become(alice);
    expect(client.getQueryData(['store', 'products'])).toEqual(['public']);
  });

  it('does not restore a cache of another build, a too old one, or a damaged one', () => {
    const storage = { value: null as string | null };
    const now = { ms: 1_000_000 };
    const first = tab(storage, fakeSession(alice), now, 'build-1');
    first.client.setQueryData(['wallet', 'assets'], { usdt: '1' });
    first.persistence.save();
    const saved = storage.value;

    expect(tab(storage, fakeSession(alice), now, 'build-2').persistence.restore()).toBe(false);
    storage.value = saved;
    expect(tab(storage, fakeSession(alice), { ms: now.ms + persistMaxAgeMs + 1 }, 'build-1').persistence.restore()).toBe(false);
    storage.value = '{not json';
    expect(tab(storage, fakeSession(alice), now, 'build-1').persistence.restore()).toBe(false);
    expect(storage.value).toBeNull();
  });
});
