import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DestroyPreview } from '@nadi/api/mining';
import { call } from '../../../lib/api-client.ts';
import { miningQueryKey } from '../../../lib/invalidate-mining.ts';

/** The reference price moves with the market; a preview left on screen is renewed this often. */
export const previewRefetchMs = 15_000;

export async function previewDestroy(amount: string, signal?: AbortSignal): Promise<DestroyPreview> {
  const { miningRoutes } = await import('@nadi/api/mining');
  return call(miningRoutes.destroyPreview, { amount }, { signal, isSilent: true });
}

export const destroyPreviewQueryOptions = (amount: string | null) =>
  queryOptions({
    queryKey: [miningQueryKey, 'destroy-preview', amount],
    queryFn: ({ signal }) => previewDestroy(amount ?? '', signal),
    enabled: amount !== null,
    staleTime: 0,
    refetchInterval: previewRefetchMs,
  });

/**
 * What destroying `amount` (canonical decimal string) would give, asked once the amount is valid;
 * the last preview stays on screen while the next one loads, so the figures do not flicker.
 */
export function usePreviewDestroy(amount: string | null) {
  return useQuery({ ...destroyPreviewQueryOptions(amount), placeholderData: keepPreviousData });
}
