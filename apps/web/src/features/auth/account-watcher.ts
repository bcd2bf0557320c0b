import { goHome, isOnAuthRoute } from '../../lib/app-navigation.ts';
import { session } from '../../lib/session.ts';
import { signOut } from '../../lib/sign-out.ts';
import { loadWallet } from '../../lib/wallet/load-wallet.ts';
import { whenLoadedAndIdle } from '../../lib/when-idle.ts';

// docs/product.md section 4 ("Session"): switching accounts in the wallet ends the old session and asks for a new signature. The
// watcher compares the wallet's account with the session's; one change triggers one sign-out and
// one request, and a cancelled signature leaves no session to compare against, so it cannot loop.

type Listener = (address: string) => void;
const listeners = new Set<Listener>();
let isStarted = false;
let handledAddress: string | null = null;

export function onWalletAccountChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

async function check(address: string | null): Promise<void> {
  const { walletAddress } = session.get();
  if (!address || !walletAddress || !session.getToken()) return;
  const next = address.toLowerCase();
  if (next === walletAddress.toLowerCase() || next === handledAddress) return;
  handledAddress = next;
  await signOut({ shouldDisconnectWallet: false });
  // The old account's screens must not stay up; the new signature starts from home.
  if (isOnAuthRoute()) goHome();
  for (const listener of listeners) listener(address);
}

/**
 * Starts watching once, for the rest of the page's life (it needs wagmi, so only with a session),
 * after the first screen has loaded: wagmi and viem are the largest download of the app and would
 * otherwise compete with the screen's own code and data. A switch made meanwhile is still seen:
 * the wallet's current account is compared as soon as it loads.
 */
export function startAccountWatch(): void {
  if (isStarted) return;
  isStarted = true;
  whenLoadedAndIdle(watch);
}

function watch(): void {
  session.subscribe(() => {
    // A new session (even for the same address again) may be switched away from later.
    if (session.get().token) handledAddress = null;
  });
  void loadWallet()
    .then(async (wallet) => {
      wallet.onAddressChange((address) => void check(address));
      // After a reload the wallet may now be on another account than the one that signed.
      void check(await wallet.reconnect().catch(() => null));
    })
    .catch(() => {
      // Without the wallet module there is nothing to watch; the next sign-in loads it again.
      isStarted = false;
    });
}
