import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client.ts';

/** One retry is enough on a phone; the client errors of spec section 8 never improve by retrying. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 1) return false;
  return !isApiError(error) || error.failure.kind === 'network' || error.failure.kind === 'server';
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: shouldRetry, staleTime: 30_000, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
