import { queryOptions, useQuery } from '@tanstack/react-query';

// /healthz is an operations probe, not part of the JSON contract (no envelope), so it is a plain
// fetch: the check only needs to know the service answers.

export const healthTimeoutMs = 5000;

export async function getHealth(signal?: AbortSignal): Promise<boolean> {
  const timeout = AbortSignal.timeout(healthTimeoutMs);
  const response = await fetch('/healthz', { signal: signal && typeof AbortSignal.any === 'function' ? AbortSignal.any([signal, timeout]) : timeout });
  if (!response.ok) throw new Error(`healthz answered ${response.status}`);
  return true;
}

export const healthQueryOptions = () =>
  queryOptions({
    queryKey: ['security-check', 'health'],
    queryFn: ({ signal }) => getHealth(signal),
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });

export function useHealth() {
  return useQuery(healthQueryOptions());
}
