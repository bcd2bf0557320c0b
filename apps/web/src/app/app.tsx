import { useEffect } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { BrowserRouter } from 'react-router';
import { queryClient } from '../lib/query-client.ts';
import { AppLayout } from './layout/app-layout.tsx';

function useRefetchOnLanguageChange() {
  useEffect(() => {
    // Server messages and notices are translated by the server: fetch them again in the new language.
    const onChange = () => void queryClient.invalidateQueries();
    i18next.on('languageChanged', onChange);
    return () => i18next.off('languageChanged', onChange);
  }, []);
}

// Declarative router mode: it is half the size of the data router, and the home route's first
// download has a budget (build.test.ts). Guards run in RouteScreen instead of loaders.
export function App() {
  useRefetchOnLanguageChange();
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppLayout />
      </BrowserRouter>
    </QueryClientProvider>
  );
}
