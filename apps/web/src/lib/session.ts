import type { UserInfo } from '@nadi/api/user';
import { readItem, removeItem, storageKeys, writeItem } from './storage.ts';

/** docs/product.md sections 3 and 9: a session idles out after 360000 ms; the server renews on activity too. */
export const sessionIdleMs = 360_000;

export interface SessionState {
  token: string | null;
  /** Epoch ms after which the token is treated as gone unless renewed first. */
  expiresAtMs: number;
  user: UserInfo | null;
  walletAddress: string | null;
  inviteUrl: string | null;
}

const emptySession: SessionState = { token: null, expiresAtMs: 0, user: null, walletAddress: null, inviteUrl: null };

type Listener = () => void;

export interface SessionStore {
  get(): SessionState;
  /** The token if it has not idled out; an expired one is cleared on read. */
  getToken(): string | null;
  start(input: { token: string; walletAddress: string; expiresInMs?: number }): void;
  renew(): void;
  setUser(user: UserInfo): void;
  clear(): void;
  subscribe(listener: Listener): () => void;
}

function isSessionState(value: unknown): value is SessionState {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (v.token === null || typeof v.token === 'string') && typeof v.expiresAtMs === 'number';
}

function restore(): SessionState {
  const raw = readItem('session', storageKeys.session);
  if (!raw) return emptySession;
  try {
    const parsed: unknown = JSON.parse(raw);
    return isSessionState(parsed) ? { ...emptySession, ...parsed } : emptySession;
  } catch {
    return emptySession;
  }
}

/**
 * The session lives in memory and in sessionStorage (docs/product.md section 3), so a reload in the same tab
 * keeps the user signed in while a new tab starts anonymous.
 */
export function createSessionStore(now: () => number = Date.now): SessionStore {
  let state = restore();
  const listeners = new Set<Listener>();

  function commit(next: SessionState): void {
    state = next;
    if (next.token) writeItem('session', storageKeys.session, JSON.stringify(next));
    else removeItem('session', storageKeys.session);
    for (const listener of listeners) listener();
  }

  return {
    get: () => state,
    getToken() {
      if (!state.token) return null;
      if (now() >= state.expiresAtMs) {
        commit(emptySession);
        return null;
      }
      return state.token;
    },
    start({ token, walletAddress, expiresInMs = sessionIdleMs }) {
      commit({ ...emptySession, token, walletAddress, expiresAtMs: now() + expiresInMs });
    },
    renew() {
      if (!state.token) return;
      // Written without notifying: a renewal changes nothing a screen shows.
      state = { ...state, expiresAtMs: now() + sessionIdleMs };
      writeItem('session', storageKeys.session, JSON.stringify(state));
    },
    setUser(user) {
      if (!state.token) return;
      commit({ ...state, user, inviteUrl: user.invite_link });
    },
    clear() {
      if (state === emptySession) return;
      commit(emptySession);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const session = createSessionStore();
