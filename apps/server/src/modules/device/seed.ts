// The device models development starts with: the demo devices and the agent register as the first;
// the store sells all three (db/seed/store-products.ts).
import { units } from '@nadi/money/money';
import type { Db, Tx } from '../../db/client.ts';
import { deviceModels } from './schema.ts';
import type { ModelValues } from './repo.ts';

export const defaultDeviceModel: ModelValues = {
  code: 'NADI-BOX-1',
  name: 'NADI Edge Box',
  basePower: 100n * 100n,
  giftPower: 10n * 100n,
  priceUsdt: units('500'),
};

/** The store's larger models (base and gift power in cP). */
export const storeDeviceModels: ModelValues[] = [
  defaultDeviceModel,
  { code: 'NADI-BOX-PRO', name: 'NADI Box Pro', basePower: 320n * 100n, giftPower: 40n * 100n, priceUsdt: units('1500') },
  { code: 'NADI-EDGE-AI', name: 'NADI Edge AI', basePower: 900n * 100n, giftPower: 150n * 100n, priceUsdt: units('4000') },
];

/** Adds each model unless a model with its code exists (an operator's change is kept). Answers rows added. */
export async function seedDeviceModels(db: Db | Tx, models: ModelValues[], now: Date): Promise<number> {
  const rows = await db
    .insert(deviceModels)
    .values(models.map((m) => ({ ...m, createdAt: now })))
    .onConflictDoNothing()
    .returning({ id: deviceModels.id });
  return rows.length;
}

export async function seedDefaultDeviceModel(db: Db | Tx, now: Date): Promise<number> {
  return seedDeviceModels(db, [defaultDeviceModel], now);
}
