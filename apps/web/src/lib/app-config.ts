import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AppConfig } from '@nadi/api/config';
import { call } from './api-client.ts';
import { queryClient } from './query-client.ts';

// Public configuration is read by several features (home countdown, wallet chain, security
// check), so its one endpoint lives in lib rather than in any single feature.

export async function getAppConfig({ signal }: { signal?: AbortSignal } = {}): Promise<AppConfig> {
  // The contract (and zod inside it) loads with the first call, in parallel with the first paint:
  // the home route's initial download stays within its budget (build.test.ts).
  const { configRoutes } = await import('@nadi/api/config');
  // Plain always: the config says whether (and to which key) the other calls are sealed.
  return call(configRoutes.config, undefined, { signal, isSilent: true, isPlain: true });
}

export const appConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['config'],
    queryFn: ({ signal }) => getAppConfig({ signal }),
    // Configuration changes only with a deploy.
    staleTime: Infinity,
  });

export function useAppConfig() {
  return useQuery(appConfigQueryOptions());
}

export function fetchAppConfig(): Promise<AppConfig> {
  return queryClient.fetchQuery(appConfigQueryOptions());
}

/** `rpc_url` may be relative (`/rpc` in development); wallets need an absolute URL. */
export function absoluteUrl(url: string, origin: string = globalThis.location.origin): string {
  return new URL(url, origin).toString();
}
