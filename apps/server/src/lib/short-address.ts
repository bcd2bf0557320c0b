/**
 * A wallet address as other users see it, and as a new user's default name: the first 6 and last 4
 * characters (0x12ab…cdef). The team API shows no one else's full address. Shared code (not the user
 * module's) because the team module needs it and the user module reads the team's figures.
 */
export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}
