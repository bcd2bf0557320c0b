import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TransparencySummary } from '@nadi/api/transparency';
import { call, type CallOptions } from '../../../lib/api-client.ts';

/** The public figures change at an epoch's end or a snapshot: read again this often while shown. */
export const summaryRefetchMs = 60_000;

export async function getSummary(options: CallOptions = {}): Promise<TransparencySummary> {
  const { transparencyRoutes } = await import('@nadi/api/transparency');
  return call(transparencyRoutes.summary, undefined, options);
}

export const summaryQueryOptions = () =>
  queryOptions({
    queryKey: ['transparency', 'summary'],
    queryFn: ({ signal }) => getSummary({ signal, isSilent: true }),
    refetchInterval: summaryRefetchMs,
  });

export function useSummary() {
  return useQuery(summaryQueryOptions());
}
