import { useMutation } from '@tanstack/react-query';
import type { ActivationItem } from '@nadi/api/mining';
import { call } from '../../../lib/api-client.ts';
import { invalidateMining } from '../../../lib/invalidate-mining.ts';

export async function activate(code: string): Promise<ActivationItem> {
  const { miningRoutes } = await import('@nadi/api/mining');
  return call(miningRoutes.activate, { code }, { isSilent: true });
}

/** Binding a code is idempotent by nature (a used code is refused), so no Idempotency-Key is needed. */
export function useActivate() {
  return useMutation({
    mutationFn: activate,
    onSettled: () => void invalidateMining(),
  });
}
