// The node tiers T1–T5 (docs/nodes-and-savings.md, "Node tiers"), seeded in every environment: the
// sale is the product, not demo data. A tier that exists (same level) is left as it is, so an
// operator's change survives every restart; a deleted-and-missing level comes back.
import { units } from '@nadi/money/money';
import type { Tx } from '../client.ts';
import { nodeTiers } from '../schema.ts';

export interface SeedTier {
  levelId: number;
  name: string;
  priceUsdt: bigint;
  totalQuota: number;
  perUserLimit: number;
  /** Centi-power (50 P = 5,000). */
  giftPower: bigint;
  machineRateBps: number;
  withdrawRate: number;
}

/** The table of docs/nodes-and-savings.md; names are language-neutral (the web shows T{level}). */
export const seedTiers: readonly SeedTier[] = [
  { levelId: 1, name: 'T1', priceUsdt: units('100'), totalQuota: 5_000, perUserLimit: 5, giftPower: 5_000n, machineRateBps: 200, withdrawRate: 1 },
  { levelId: 2, name: 'T2', priceUsdt: units('500'), totalQuota: 2_000, perUserLimit: 3, giftPower: 30_000n, machineRateBps: 400, withdrawRate: 6 },
  { levelId: 3, name: 'T3', priceUsdt: units('1000'), totalQuota: 1_000, perUserLimit: 2, giftPower: 70_000n, machineRateBps: 600, withdrawRate: 13 },
  { levelId: 4, name: 'T4', priceUsdt: units('2500'), totalQuota: 400, perUserLimit: 1, giftPower: 160_000n, machineRateBps: 800, withdrawRate: 30 },
  { levelId: 5, name: 'T5', priceUsdt: units('5000'), totalQuota: 100, perUserLimit: 1, giftPower: 300_000n, machineRateBps: 1_000, withdrawRate: 60 },
];

/** Inserts the tiers whose level is missing; answers how many were added. */
export async function seedNodeTiers(tx: Tx, now: Date): Promise<number> {
  const rows = await tx
    .insert(nodeTiers)
    .values(seedTiers.map((t) => ({ ...t, createdAt: now, updatedAt: now })))
    .onConflictDoNothing({ target: nodeTiers.levelId })
    .returning({ id: nodeTiers.id });
  return rows.length;
}
