import type { OperatorRole } from '@nadi/api/route';

/** The console's session: the API token, the wallet that signed in, and its console role (null: none). */
export interface AdminSession {
  token: string;
  address: string;
  role: OperatorRole | null;
}

const key = 'nadi.admin.session';

// sessionStorage: the console's session ends with the tab, and is not shared with the phone app's.
export function readSession(): AdminSession | null {
  try {
    const raw = globalThis.sessionStorage?.getItem(key);
    return raw ? (JSON.parse(raw) as AdminSession) : null;
  } catch {
    return null;
  }
}

export function writeSession(session: AdminSession): void {
  globalThis.sessionStorage?.setItem(key, JSON.stringify(session));
}

export function clearSession(): void {
  globalThis.sessionStorage?.removeItem(key);
}
