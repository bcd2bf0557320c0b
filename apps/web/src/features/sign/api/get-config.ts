import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SignConfig } from '@nadi/api/sign';
import { call, type CallOptions } from '../../../lib/api-client.ts';
import { signKeys } from './keys.ts';

export async function getSignConfig(options: CallOptions = {}): Promise<SignConfig> {
  const { signRoutes } = await import('@nadi/api/sign');
  return call(signRoutes.config, undefined, options);
}

export const signConfigQueryOptions = () =>
  queryOptions({
    queryKey: signKeys.config(),
    queryFn: ({ signal }) => getSignConfig({ signal, isSilent: true }),
    // Coming back to the app on another day shows that day's calendar.
    refetchOnWindowFocus: true,
  });

/** The 7-day calendar, today's state, the streak and the total awarded. */
export function useSignConfig() {
  return useQuery(signConfigQueryOptions());
}
