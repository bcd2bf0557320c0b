import { verifyMessage, type Hex } from 'viem';
import type { ReserveAddress } from '@nadi/api/transparency';
import { messageNames } from '@nadi/proof/reserves';

// "Signature verified in your browser" (docs/transparency.md, "Reserves"): each reserve address
// comes with a message naming it and the platform, and an EIP-191 signature; the phone recovers the
// signer itself. Loaded after the page's first paint (a chunk of its own with viem's secp256k1).

export type ReserveVerdict = 'verified' | 'bad_signature' | 'wrong_message' | 'wrong_signer';

/**
 * The signer must be the address itself; only the payment gateway, a contract, which cannot sign,
 * is vouched for by its owner. The message must name the address and this platform (the host the
 * page came from), or a signature made for another address or another platform could be shown here.
 */
export async function checkReserve(reserve: ReserveAddress, platform: string): Promise<ReserveVerdict> {
  const isSelfSigned = reserve.signer.toLowerCase() === reserve.address.toLowerCase();
  if (!isSelfSigned && reserve.role !== 'payment_gateway') return 'wrong_signer';
  if (!messageNames(reserve.message, { platform, address: reserve.address })) return 'wrong_message';
  try {
    const isValid = await verifyMessage({ address: reserve.signer as Hex, message: reserve.message, signature: reserve.signature as Hex });
    return isValid ? 'verified' : 'bad_signature';
  } catch {
    // A malformed signature or address cannot prove anything.
    return 'bad_signature';
  }
}

export function checkReserves(reserves: readonly ReserveAddress[], platform: string): Promise<ReserveVerdict[]> {
  return Promise.all(reserves.map((reserve) => checkReserve(reserve, platform)));
}
