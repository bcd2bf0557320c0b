// EIP-6963 discovery without wagmi, for screens that only need to know whether a wallet exists
// (the security check). Wallets answer a request event with an announce event each.

interface AnnounceDetail {
  info?: { name?: unknown; rdns?: unknown };
}

/** Wallets announce synchronously or within a frame or two; waiting longer only delays the screen. */
export const discoveryWindowMs = 400;

export interface DiscoveredWallets {
  /** Names announced through EIP-6963. */
  names: string[];
  /** A provider at window.ethereum (older wallets and most in-app browsers). */
  hasInjected: boolean;
}

export function discoverWallets(windowMs: number = discoveryWindowMs): Promise<DiscoveredWallets> {
  return new Promise((resolve) => {
    const names = new Set<string>();
    const onAnnounce = (event: Event) => {
      const detail = (event as CustomEvent<AnnounceDetail>).detail;
      if (typeof detail?.info?.name === 'string') names.add(detail.info.name);
    };
    window.addEventListener('eip6963:announceProvider', onAnnounce);
    window.dispatchEvent(new Event('eip6963:requestProvider'));
    setTimeout(() => {
      window.removeEventListener('eip6963:announceProvider', onAnnounce);
      const hasInjected = typeof (window as { ethereum?: unknown }).ethereum === 'object';
      resolve({ names: [...names], hasInjected });
    }, windowMs);
  });
}
