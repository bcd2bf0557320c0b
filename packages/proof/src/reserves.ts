// The ownership message of a reserve address (docs/transparency.md, "Reserves"): the text an
// address's key signs (EIP-191 personal_sign) to show that the platform controls it. It names the
// address and the platform, so a signature cannot be reused for another address or by another
// platform. The server writes it for its own keys, an admin's cold addresses must sign it, and the
// verifier checks it: one code path for the three.

const title = 'NADI proof of reserves';

/** The platform a message names: the host (and port) of the app's public address, e.g. app.nadi.example. */
export function platformOf(publicUrl: string): string {
  return new URL(publicUrl).host;
}

/** The message for `address` (write it checksummed) at `platform`. */
export function reserveMessage(input: { platform: string; address: string }): string {
  return [
    title,
    `Platform: ${input.platform}`,
    `Address: ${input.address}`,
    `This address is controlled by ${input.platform}: its NADI and USDT count in the platform's reserves. Signing this moves no funds.`,
  ].join('\n');
}

/**
 * What a message names: its `Platform:` and `Address:` lines, each present exactly once (other lines
 * are free text). Null when either is missing or repeated.
 */
export function parseReserveMessage(message: string): { platform: string; address: string } | null {
  const lines = message.split(/\r?\n/).map((line) => line.trim());
  const field = (name: string): string | null => {
    const found = lines.filter((line) => line.startsWith(`${name}:`));
    return found.length === 1 ? found[0]!.slice(name.length + 1).trim() : null;
  };
  const platform = field('Platform');
  const address = field('Address');
  return platform && address ? { platform, address } : null;
}

/** True when the message names exactly this address (any letter case) and this platform. */
export function messageNames(message: string, expected: { platform: string; address: string }): boolean {
  const named = parseReserveMessage(message);
  return named !== null && named.platform === expected.platform && named.address.toLowerCase() === expected.address.toLowerCase();
}
