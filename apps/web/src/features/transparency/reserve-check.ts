import { verifyMessage, type Hex } from 'viem';
import type { ReserveAddress } from '@nadi/api/transparency';

// "Signature verified in your browser" (docs/transparency.md, "Reserves"): each reserve address
// comes with a message naming it and an EIP-191 signature; the phone recovers the signer itself.
// Loaded after the page's first paint (a dynamic import: viem's secp256k1 stays out of the route).

export type ReserveVerdict = 'verified' | 'bad_signature' | 'wrong_message' | 'wrong_signer';

/**
 * The signer must be the address itself; only the payment gateway, a contract, which cannot sign,
 * is vouched for by its owner. The message must name the address, or a signature made for one
 * address could be shown under another.
 */
export async function checkReserve(reserve: ReserveAddress): Promise<ReserveVerdict> {
  const isSelfSigned = reserve.signer.toLowerCase() === reserve.address.toLowerCase();
  if (!isSelfSigned && reserve.role !== 'payment_gateway') return 'wrong_signer';
  if (!reserve.message.toLowerCase().includes(reserve.address.toLowerCase())) return 'wrong_message';
  try {
    const isValid = await verifyMessage({ address: reserve.signer as Hex, message: reserve.message, signature: reserve.signature as Hex });
    return isValid ? 'verified' : 'bad_signature';
  } catch {
    // A malformed signature or address cannot prove anything.
    return 'bad_signature';
  }
}

export function checkReserves(reserves: readonly ReserveAddress[]): Promise<ReserveVerdict[]> {
  return Promise.all(reserves.map(checkReserve));
}
