// The device model development starts with (the demo devices and the agent register as it).
import { units } from '@nadi/money/money';
import type { Db, Tx } from '../../db/client.ts';
import { deviceModels } from '../../db/schema.ts';
import type { ModelValues } from './repo.ts';

export const defaultDeviceModel: ModelValues = {
  code: 'NADI-BOX-1',
  name: 'NADI Edge Box',
  basePower: 100n * 100n,
  giftPower: 10n * 100n,
  priceUsdt: units('500'),
};

/** Adds the default model unless a model with its code exists (an operator's change is kept). Answers rows added. */
export async function seedDefaultDeviceModel(db: Db | Tx, now: Date): Promise<number> {
  const rows = await db
    .insert(deviceModels)
    .values({ ...defaultDeviceModel, createdAt: now })
    .onConflictDoNothing()
    .returning({ id: deviceModels.id });
  return rows.length;
}
