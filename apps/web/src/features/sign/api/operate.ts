import { useMutation } from '@tanstack/react-query';
import type { signRoutes } from '@nadi/api/sign';
import type { RouteData } from '@nadi/api/route';
import { call } from '../../../lib/api-client.ts';
import { invalidateWallet } from '../../../lib/invalidate-wallet.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { signKeys } from './keys.ts';

export type SignResult = RouteData<typeof signRoutes.operate>;

/**
 * Signs in for today. No Idempotency-Key: the server pays one sign-in per user and day whatever
 * the number of requests, and a repeat answers SIGN_IN_ALREADY.
 */
export async function operateSign(): Promise<SignResult> {
  const { signRoutes } = await import('@nadi/api/sign');
  return call(signRoutes.operate, undefined, { isSilent: true });
}

export function useOperateSign() {
  return useMutation({
    mutationFn: operateSign,
    onSettled: () => {
      // After a failure too: signed elsewhere meanwhile, or an answer lost on the way.
      void queryClient.invalidateQueries({ queryKey: signKeys.all() });
      void invalidateWallet();
    },
  });
}
