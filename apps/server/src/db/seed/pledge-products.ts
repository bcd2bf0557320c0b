// The savings products (docs/economy.md "Savings (pledge)", docs/nodes-and-savings.md): flexible, locked 30/90/180,
// joint and node savings, open for a year from the first start. Names are English: the web shows
// each product by its kind and term in the reader's language.
import { units } from '@nadi/money/money';
import type { PledgeKind } from '@nadi/api/pledge';
import type { Tx } from '../client.ts';
import { pledgeProducts } from '../schema.ts';

/** How long the seeded products can be joined, from the first start. */
export const pledgeSeedOpenDays = 365;

interface SeedPledgeProduct {
  kind: PledgeKind;
  name: string;
  termEpochs: number;
  minPledge: bigint;
  /** Parts per million per epoch (0.03 % a day = 300). */
  dayRatePpm: number;
  epochBudget: bigint | null;
  poolCap: bigint;
  sort: number;
}

// The caps keep a year of interest at full pools (about 22,800 NADI an epoch) within the savings
// pool's 10,000,000 NADI genesis funding, the longer terms (which pay more) with the smaller caps.
export const pledgeSeedProducts: SeedPledgeProduct[] = [
  {
    kind: 'flexible',
    name: 'Flexible savings',
    termEpochs: 0,
    minPledge: units('100'),
    dayRatePpm: 300,
    epochBudget: null,
    poolCap: units('10000000'),
    sort: 10,
  },
  {
    kind: 'locked',
    name: 'Locked savings 30 days',
    termEpochs: 30,
    minPledge: units('500'),
    dayRatePpm: 600,
    epochBudget: null,
    poolCap: units('5000000'),
    sort: 20,
  },
  {
    kind: 'locked',
    name: 'Locked savings 90 days',
    termEpochs: 90,
    minPledge: units('500'),
    dayRatePpm: 800,
    epochBudget: null,
    poolCap: units('3000000'),
    sort: 30,
  },
  {
    kind: 'locked',
    name: 'Locked savings 180 days',
    termEpochs: 180,
    minPledge: units('500'),
    dayRatePpm: 1000,
    epochBudget: null,
    poolCap: units('2000000'),
    sort: 40,
  },
  {
    kind: 'joint',
    name: 'Joint savings',
    termEpochs: 0,
    minPledge: units('1000'),
    dayRatePpm: 0,
    epochBudget: units('10000'),
    poolCap: units('5000000'),
    sort: 50,
  },
  { kind: 'node', name: 'Node savings', termEpochs: 0, minPledge: units('1000'), dayRatePpm: 1200, epochBudget: null, poolCap: units('2000000'), sort: 60 },
];

/** Inserts the products (the caller runs it once, by its seed_runs row: later they are the operator's). */
export async function seedPledgeProducts(tx: Tx, now: Date): Promise<number> {
  const endsAt = new Date(now.getTime() + pledgeSeedOpenDays * 86_400_000);
  await tx.insert(pledgeProducts).values(pledgeSeedProducts.map((p) => ({ ...p, startsAt: now, endsAt, isEnabled: true, createdAt: now })));
  return pledgeSeedProducts.length;
}
