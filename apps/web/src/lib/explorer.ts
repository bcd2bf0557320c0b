/** A transaction's page on the configured block explorer; null when none is configured. */
export function txUrl(explorerUrl: string | null | undefined, hash: string): string | null {
  if (!explorerUrl) return null;
  return `${explorerUrl.replace(/\/+$/, '')}/tx/${hash}`;
}
