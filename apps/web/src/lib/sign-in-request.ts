// Any screen may ask for the sign-in sheet (the home hero, a footer tab that needs a session);
// the auth feature owns the sheet. This tiny channel keeps features from importing each other.

export interface SignInRequest {
  /** Where to go once signed in; none stays on the current screen. */
  redirectTo?: string;
  /** Why the sheet opened, for the message it shows first. */
  cause?: 'user' | 'account-changed';
}

type Listener = (request: SignInRequest) => void;
const listeners = new Set<Listener>();

export function requestSignIn(request: SignInRequest = {}): void {
  for (const listener of listeners) listener(request);
}

export function onSignInRequest(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
