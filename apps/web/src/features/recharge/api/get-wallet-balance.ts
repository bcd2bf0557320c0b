import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Address } from '../../../lib/payment/payment-flow.ts';
import { loadWallet } from '../../../lib/wallet/load-wallet.ts';
import { rechargeQueryKey } from './get-recharge-address.ts';

/**
 * The NADI the signed-in wallet holds on chain, read from the configured RPC: wagmi and viem load
 * with the first read (a chunk of their own), and no wallet connection is needed to read.
 */
export async function getWalletTokenBalance(token: Address, owner: Address): Promise<bigint> {
  const [wallet, { readTokenBalance }] = await Promise.all([loadWallet(), import('../../../lib/payment/payment-chain.ts')]);
  return readTokenBalance(wallet, token, owner);
}

export const walletBalanceQueryOptions = (token: string, owner: string | null) =>
  queryOptions({
    queryKey: [rechargeQueryKey, 'walletBalance', token, owner],
    queryFn: () => getWalletTokenBalance(token as Address, owner as Address),
    enabled: owner !== null,
    // The wallet may receive or spend elsewhere; read again when the screen comes back.
    staleTime: 15_000,
  });

export function useWalletTokenBalance(token: string, owner: string | null) {
  return useQuery(walletBalanceQueryOptions(token, owner));
}
