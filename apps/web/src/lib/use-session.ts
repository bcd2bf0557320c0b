import { useSyncExternalStore } from 'react';
import { session, type SessionState } from './session.ts';

export function useSession(): SessionState & { isSignedIn: boolean } {
  const state = useSyncExternalStore(session.subscribe, session.get, session.get);
  return { ...state, isSignedIn: state.token !== null };
}
