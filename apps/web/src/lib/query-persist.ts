import { dehydrate, hydrate, type DehydratedState, type Query, type QueryClient } from '@tanstack/react-query';
import type { SessionState } from './session.ts';

// The query cache kept in the tab's sessionStorage (issue 33): after a reload or a return to the
// tab, a screen shows what it showed last at once and refreshes it (stale-while-revalidate: what
// is older than the query's staleTime is fetched again on mount). It is the same storage as the
// session (lib/session.ts), so it goes with the tab. It belongs to one account: written with its
// owner (the session's address, or nobody when signed out), restored only for the same owner and
// the same build, and dropped, with the account's queries in memory, when the session ends or
// another account signs in.

/** Raised when what is stored changes shape; the build's own identity is added to it. */
export const persistFormat = 1;
/** Older than this, a stored cache is not shown (a tab left open for a day shows fresh data). */
export const persistMaxAgeMs = 30 * 60_000;
/** Above this, the cache is not stored (sessionStorage is small, and parsing it is on the first paint). */
export const persistMaxChars = 1_000_000;

/** Queries never stored nor dropped with an account: the public config (it drives the envelope). */
export function isPublicQuery(query: Pick<Query, 'queryKey'>): boolean {
  return query.queryKey[0] === 'config';
}

export interface PersistedCache {
  version: string;
  owner: string | null;
  savedAtMs: number;
  state: DehydratedState;
}

export interface QueryPersistDeps {
  client: QueryClient;
  read(): string | null;
  write(value: string): void;
  remove(): void;
  session: { get(): Pick<SessionState, 'token' | 'walletAddress'>; subscribe(listener: () => void): () => void };
  now(): number;
  /** The build's identity: a cache from another build is not restored. */
  version: string;
  /** When to write after the cache changes (a debounce); `save` writes at once. */
  scheduleSave(run: () => void): void;
}

/** Whose data the cache may hold: the session's account (its address), or null when signed out. */
export function ownerOf(state: Pick<SessionState, 'token' | 'walletAddress'>): string | null {
  if (!state.token) return null;
  return state.walletAddress ? state.walletAddress.toLowerCase() : `token:${state.token}`;
}

const bigintTag = '$bigint';

function replacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? { [bigintTag]: value.toString() } : value;
}

function reviver(_key: string, value: unknown): unknown {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const tagged = (value as Record<string, unknown>)[bigintTag];
    if (typeof tagged === 'string' && Object.keys(value).length === 1) return BigInt(tagged);
  }
  return value;
}

function parse(raw: string | null): PersistedCache | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw, reviver) as Partial<PersistedCache> | null;
    if (!value || typeof value.version !== 'string' || typeof value.savedAtMs !== 'number' || !value.state) return null;
    return { version: value.version, owner: value.owner ?? null, savedAtMs: value.savedAtMs, state: value.state };
  } catch {
    return null;
  }
}

export interface QueryPersistence {
  /** Puts the stored cache into the client when it is this owner's and this build's; true if it did. */
  restore(): boolean;
  /** Writes the cache now (the page is being hidden). */
  save(): void;
  stop(): void;
}

export function createQueryPersistence(deps: QueryPersistDeps): QueryPersistence {
  const { client } = deps;
  /** Whose data the client's cache holds now. */
  let cacheOwner = ownerOf(deps.session.get());
  let isSaveScheduled = false;

  function save(): void {
    isSaveScheduled = false;
    const owner = ownerOf(deps.session.get());
    // Only the owner's own data: after a session ends, until its queries are gone, nothing is written.
    if (owner !== cacheOwner) return;
    const state = dehydrate(client, {
      shouldDehydrateQuery: (query) => query.state.status === 'success' && query.state.data !== undefined && !isPublicQuery(query),
      shouldDehydrateMutation: () => false,
    });
    if (state.queries.length === 0) return deps.remove();
    let text: string;
    try {
      text = JSON.stringify({ version: deps.version, owner, savedAtMs: deps.now(), state } satisfies PersistedCache, replacer);
    } catch {
      return deps.remove();
    }
    if (text.length > persistMaxChars) return deps.remove();
    deps.write(text);
  }

  function scheduleSave(): void {
    if (isSaveScheduled) return;
    isSaveScheduled = true;
    deps.scheduleSave(save);
  }

  /**
   * The account's queries leave memory and storage: none is shown to the next account. Removing a
   * query cancels its fetch still in flight, so the old session's answer never lands.
   */
  function dropAccountData(nextOwner: string | null): void {
    deps.remove();
    const isAccountQuery = (query: Query) => !isPublicQuery(query);
    if (nextOwner === null) {
      // Signed out or expired: as lib/sign-out.ts does. A screen still showing is being left (an
      // auth route goes home); fetched again now, without a token, it would only get 401s.
      client.removeQueries({ predicate: isAccountQuery });
      return;
    }
    client.removeQueries({ predicate: (query) => isAccountQuery(query) && query.getObserversCount() === 0 });
    // Another account at once: a screen showing now gets its queries back to loading and fetched
    // again with the new session (the refetch cancels the old session's fetch in flight).
    void client.resetQueries({ predicate: isAccountQuery }).catch(() => undefined);
  }

  function onSessionChange(): void {
    const owner = ownerOf(deps.session.get());
    if (owner === cacheOwner) return;
    // Signed out, session expired, or another account: what is cached is someone else's now. A
    // sign-in from signed out keeps the public data it read.
    if (cacheOwner !== null) dropAccountData(owner);
    else deps.remove();
    cacheOwner = owner;
  }

  const stopSession = deps.session.subscribe(onSessionChange);
  const stopCache = client.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'success') scheduleSave();
    else if (event.type === 'removed') scheduleSave();
  });

  return {
    restore() {
      const stored = parse(deps.read());
      const owner = ownerOf(deps.session.get());
      const isUsable =
        stored !== null &&
        stored.version === deps.version &&
        stored.owner === owner &&
        deps.now() - stored.savedAtMs <= persistMaxAgeMs &&
        deps.now() >= stored.savedAtMs;
      if (!isUsable) {
        if (stored !== null || deps.read() !== null) deps.remove();
        return false;
      }
      hydrate(client, stored.state);
      // Shown at once, and always fetched again when a screen mounts them, however recent: a reload
      // means "show me now's figures" (stale-while-revalidate).
      for (const { queryKey } of stored.state.queries) void client.invalidateQueries({ queryKey, exact: true, refetchType: 'none' });
      return true;
    },
    save,
    stop() {
      stopSession();
      stopCache();
    },
  };
}
