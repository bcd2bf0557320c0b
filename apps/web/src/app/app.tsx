import { useEffect } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { translator } from '../lib/translator.ts';
import { BrowserRouter } from 'react-router';
import { queryClient } from '../lib/query-client.ts';
import { useSession } from '../lib/use-session.ts';
import { whenLoadedAndIdle } from '../lib/when-idle.ts';
import { AppLayout } from './layout/app-layout.tsx';

function useRefetchOnLanguageChange() {
  useEffect(() => {
    // Server messages and notices are translated by the server: fetch them again in the new language.
    const onChange = () => void queryClient.invalidateQueries();
    translator.on('languageChanged', onChange);
    return () => translator.off('languageChanged', onChange);
  }, []);
}

/**
 * The account socket (`/ws`) runs while a session exists, with that session's token. It starts once
 * the first screen's reads have answered: those reads are fresh, and its code (the socket, the
 * notice toast, the invalidations) does not share the network with them (issue 33).
 */
function useAccountSocket() {
  const { token } = useSession();
  useEffect(() => {
    if (!token) return;
    let stop: (() => void) | null = null;
    let isCancelled = false;
    whenLoadedAndIdle(() => {
      if (isCancelled) return;
      void import('../lib/socket/account-socket-runtime.ts').then(({ startAccountSocket }) => {
        if (!isCancelled) stop = startAccountSocket();
      });
    });
    return () => {
      isCancelled = true;
      stop?.();
    };
  }, [token]);
}

// Declarative router mode: it is half the size of the data router, and the home route's first
// download has a budget (build.test.ts). Guards run in RouteScreen instead of loaders.
export function App() {
  useRefetchOnLanguageChange();
  useAccountSocket();
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppLayout />
      </BrowserRouter>
    </QueryClientProvider>
  );
}
