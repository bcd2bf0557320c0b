import { lazy, Suspense, useEffect, useState } from 'react';
import { onSignInRequest, type SignInRequest } from '../../../lib/sign-in-request.ts';
import { useSession } from '../../../lib/use-session.ts';
import { onWalletAccountChange, startAccountWatch } from '../account-watcher.ts';

// The sheet (and wagmi behind it) loads on the first request, never with the home route.
const SignInSheet = lazy(() => import('./sign-in-sheet.tsx'));

interface OpenRequest {
  request: SignInRequest;
  /** Each request starts the sheet afresh, even when one is already showing. */
  seq: number;
}

/** Mounted once by the app: opens the sign-in sheet on request and watches wallet account switches. */
export function AuthHost() {
  const [open, setOpen] = useState<OpenRequest | null>(null);
  const [isOpen, setIsOpen] = useState(false);
  const { isSignedIn } = useSession();

  useEffect(() => {
    function show(request: SignInRequest) {
      setOpen((previous) => ({ request, seq: (previous?.seq ?? 0) + 1 }));
      setIsOpen(true);
    }
    const stopRequests = onSignInRequest(show);
    const stopAccounts = onWalletAccountChange(() => show({ cause: 'account-changed' }));
    return () => {
      stopRequests();
      stopAccounts();
    };
  }, []);

  // Watching needs wagmi: it starts only once there is a session to protect.
  useEffect(() => {
    if (isSignedIn) startAccountWatch();
  }, [isSignedIn]);

  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <SignInSheet key={open.seq} request={open.request} isOpen={isOpen} onClose={() => setIsOpen(false)} />
    </Suspense>
  );
}
