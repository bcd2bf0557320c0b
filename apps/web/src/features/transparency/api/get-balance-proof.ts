import type { z } from 'zod/mini';
import type { balanceProof } from '@nadi/api/transparency';
import { call, type CallOptions } from '../../../lib/api-client.ts';

export type BalanceProof = z.infer<typeof balanceProof>;

/** The caller's liabilities proof in a snapshot (the latest when none is named). Fetched when the user asks to verify. */
export async function getBalanceProof(snapshotId: number | undefined, options: CallOptions = {}): Promise<BalanceProof> {
  const { transparencyRoutes } = await import('@nadi/api/transparency');
  return call(transparencyRoutes.balanceProof, { snapshot_id: snapshotId }, options);
}
