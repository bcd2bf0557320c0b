import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { pledgeRoutes } from '@nadi/api/pledge';
import type { RouteData } from '@nadi/api/route';
import { call } from '../../../lib/api-client.ts';
import { nextPage, recordsPageSize } from '../../../lib/paging.ts';
import { pledgeKeys } from './keys.ts';

export type ReleaseRecord = RouteData<typeof pledgeRoutes.releases>['list'][number];

export async function getReleases({ page, signal }: { page: number; signal?: AbortSignal }) {
  const { pledgeRoutes } = await import('@nadi/api/pledge');
  return call(pledgeRoutes.releases, { page, page_size: recordsPageSize }, { signal, isSilent: true });
}

export const releasesQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: pledgeKeys.releases(),
    queryFn: ({ pageParam, signal }) => getReleases({ page: pageParam, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    refetchOnWindowFocus: true,
  });

/** Release records (docs/product.md section 4: waiting for release, then redeemed), ten a page. */
export function useReleases() {
  return useInfiniteQuery(releasesQueryOptions());
}
