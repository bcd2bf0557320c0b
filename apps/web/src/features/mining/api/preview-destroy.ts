import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DestroyPayMethod, DestroyPreview } from '@nadi/api/mining';
import { call } from '../../../lib/api-client.ts';
import { miningQueryKey } from '../../../lib/invalidate-mining.ts';

/** The reference price moves with the market; a preview left on screen is renewed this often. */
export const previewRefetchMs = 15_000;

/** `payMethod` chain: the wallet pays, so the server does not check the fund account. */
export async function previewDestroy(amount: string, payMethod: DestroyPayMethod, signal?: AbortSignal): Promise<DestroyPreview> {
  const { miningRoutes } = await import('@nadi/api/mining');
  return call(miningRoutes.destroyPreview, { amount, pay_method: payMethod }, { signal, isSilent: true });
}

export const destroyPreviewQueryOptions = (amount: string | null, payMethod: DestroyPayMethod = 'balance') =>
  queryOptions({
    queryKey: [miningQueryKey, 'destroy-preview', payMethod, amount],
    queryFn: ({ signal }) => previewDestroy(amount ?? '', payMethod, signal),
    enabled: amount !== null,
    staleTime: 0,
    refetchInterval: previewRefetchMs,
  });

/**
 * What destroying `amount` (canonical decimal string) would give, asked once the amount is valid;
 * the last preview stays on screen while the next one loads, so the figures do not flicker.
 */
export function usePreviewDestroy(amount: string | null, payMethod: DestroyPayMethod = 'balance') {
  return useQuery({ ...destroyPreviewQueryOptions(amount, payMethod), placeholderData: keepPreviousData });
}
