import { call } from './api-client.ts';
import { queryClient } from './query-client.ts';
import { session } from './session.ts';
import { loadedWallet } from './wallet/load-wallet.ts';

// Shared by the user centre's button and the auth feature's account-switch handling, so it lives
// in lib; it is the one place that calls the logout endpoint.

export interface SignOutOptions {
  /** False when the wallet itself switched accounts: it stays connected for the new signature. */
  shouldDisconnectWallet?: boolean;
}

export async function signOut({ shouldDisconnectWallet = true }: SignOutOptions = {}): Promise<void> {
  if (session.getToken()) {
    // Best effort: the session ends here whatever the server answers. The contract loads lazily
    // because the account watcher, which imports this file, is part of the first download.
    const { authRoutes } = await import('@nadi/api/auth');
    await call(authRoutes.logout, undefined, { isSilent: true }).catch(() => undefined);
  }
  session.clear();
  // Everything cached belonged to the old account; public configuration stays.
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'config' });
  const wallet = loadedWallet();
  if (shouldDisconnectWallet && wallet) {
    await wallet.then((client) => client.disconnect()).catch(() => undefined);
  }
}
