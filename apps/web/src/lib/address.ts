import { getAddress } from 'viem';

// Kept out of lib/format.ts: viem's checksum (keccak) must not join the home route's first download.

/**
 * An address as people should copy and compare it: EIP-55 checksummed (the server sends it so,
 * and this keeps it so if it ever did not), or as it came when it is not an address.
 */
export function checksummed(address: string): string {
  try {
    return getAddress(address);
  } catch {
    return address;
  }
}

/**
 * An address in groups of four hex digits ("0x" stays with the first), so it can be checked
 * against the wallet's screen piece by piece. The groups join back into the address.
 */
export function addressGroups(address: string): string[] {
  const hasPrefix = address.startsWith('0x');
  const groups = (hasPrefix ? address.slice(2) : address).match(/.{1,4}/g) ?? [];
  if (hasPrefix && groups.length > 0) groups[0] = `0x${groups[0]}`;
  return groups;
}
