import { QueryClient } from '@tanstack/react-query';

// Reads are repeated by the API client itself (lib/read-retry.ts: backoff with jitter, Retry-After),
// so one failure toast follows the last attempt; a query does not repeat them again. Queries and
// mutations run whatever the browser says about the network ('always'): offline, a screen shows its
// error state with a retry button instead of waiting silently, and a money action is never held
// back to be sent by itself later. The app refetches when the connection returns (app/pwa/).
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, staleTime: 30_000, refetchOnWindowFocus: false, networkMode: 'always' },
    mutations: { retry: false, networkMode: 'always' },
  },
});
