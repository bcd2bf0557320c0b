// Sessions recently read, so that an authenticated request does not cost a database round trip.
// A cached session is trusted for at most sessionCacheTtlMs of real time, then read again; its
// expiry and lifetime are still checked against the clock on every request (service.ts), with the
// renewal written through. A revoked session (logout) is dropped at once on every instance: the
// revoking instance publishes 'session_revoked' on the event bus (Redis between instances). So the
// only way a request can pass on a session that is no longer valid is a revocation that did not go
// through logout (a row changed by hand), and then for at most sessionCacheTtlMs.
import type { EventBus } from '../../lib/event-bus.ts';

export const sessionCacheTtlMs = 5_000;
export const sessionCacheEntriesMax = 50_000;

export interface CachedSession {
  id: number;
  userId: number;
  address: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

interface Entry {
  session: CachedSession;
  readAtMs: number;
}

export class SessionCache {
  /** By token hash; Map order is insertion order, so the first entry is the oldest read. */
  private readonly entries = new Map<string, Entry>();
  private readonly hashById = new Map<number, string>();
  private readonly unsubscribe: () => void;

  constructor(events: EventBus) {
    this.unsubscribe = events.subscribe((e) => {
      if (e.type === 'session_revoked') this.forget(e.sessionId);
    });
  }

  /** The session if it was read less than sessionCacheTtlMs ago. */
  get(tokenHash: string): CachedSession | null {
    const entry = this.entries.get(tokenHash);
    if (!entry) return null;
    if (performance.now() - entry.readAtMs < sessionCacheTtlMs) return entry.session;
    this.drop(tokenHash, entry.session.id);
    return null;
  }

  set(tokenHash: string, session: CachedSession): void {
    this.drop(tokenHash, session.id);
    if (this.entries.size >= sessionCacheEntriesMax) {
      const [oldestHash, oldest] = this.entries.entries().next().value ?? [];
      if (oldestHash !== undefined && oldest) this.drop(oldestHash, oldest.session.id);
    }
    this.entries.set(tokenHash, { session, readAtMs: performance.now() });
    this.hashById.set(session.id, tokenHash);
  }

  forget(sessionId: number): void {
    const hash = this.hashById.get(sessionId);
    if (hash !== undefined) this.drop(hash, sessionId);
  }

  close(): void {
    this.unsubscribe();
    this.entries.clear();
    this.hashById.clear();
  }

  private drop(tokenHash: string, sessionId: number): void {
    this.entries.delete(tokenHash);
    this.hashById.delete(sessionId);
  }
}
