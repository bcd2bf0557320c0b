import type { z } from 'zod/mini';
import type { incomeProof } from '@nadi/api/transparency';
import { call, type CallOptions } from '../../../lib/api-client.ts';

export type IncomeProof = z.infer<typeof incomeProof>;

/** The caller's income proof for a settled epoch. Fetched when the user asks to verify. */
export async function getIncomeProof(epoch: number, options: CallOptions = {}): Promise<IncomeProof> {
  const { transparencyRoutes } = await import('@nadi/api/transparency');
  return call(transparencyRoutes.incomeProof, { epoch }, options);
}
