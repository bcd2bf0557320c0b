/** The part of an EIP-1193 provider the console uses. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

interface AnnounceDetail {
  info: { name: string; rdns: string };
  provider: Eip1193Provider;
}

/**
 * The browser's injected wallet: the first one announcing itself through EIP-6963 (MetaMask,
 * the e2e wallet), else the legacy `window.ethereum`. Null when there is none.
 */
export async function findWallet(waitMs = 200): Promise<Eip1193Provider | null> {
  const announced: AnnounceDetail[] = [];
  const onAnnounce = (event: Event) => announced.push((event as CustomEvent<AnnounceDetail>).detail);
  window.addEventListener('eip6963:announceProvider', onAnnounce);
  window.dispatchEvent(new Event('eip6963:requestProvider'));
  await new Promise((resolve) => setTimeout(resolve, waitMs));
  window.removeEventListener('eip6963:announceProvider', onAnnounce);
  const metaMask = announced.find((d) => d.info.rdns === 'io.metamask');
  const injected = (window as unknown as { ethereum?: Eip1193Provider }).ethereum ?? null;
  return (metaMask ?? announced[0])?.provider ?? injected;
}

/** personal_sign takes the message as hex of its UTF-8 bytes (what wallets sign as EIP-191). */
export function utf8ToHex(text: string): string {
  return `0x${Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** A wallet's refusal (EIP-1193 code 4001) in words for the login screen. */
export function walletErrorMessage(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 4001) return 'The wallet request was rejected.';
  return error instanceof Error && error.message ? error.message : 'The wallet failed.';
}
