// A stand-in for the mining reference price until `modules/mining/reference-price.ts` (the 15-minute
// time-weighted market average) lands: the operator's configured `nadi_reference_price`. At merge
// settle.ts imports the real `referencePrice` instead and this file goes.
import { units } from '@nadi/money/money';
import type { Db, Tx } from '../../../db/client.ts';
import { readSetting } from '../../config/index.ts';
import { priceSettingKeys } from '../../wallet/index.ts';

export interface ReferencePrice {
  /** USDT base units per whole NADI. */
  price: bigint;
  source: 'market' | 'reference';
}

/** The reference price at `at` (unused here: the configured price has no history); null when none is set. */
export async function referencePrice(db: Db | Tx, at: Date): Promise<ReferencePrice | null> {
  void at;
  const value = await readSetting(db, priceSettingKeys.nadiReferencePrice);
  if (typeof value !== 'string') return null;
  const price = units(value);
  return price > 0n ? { price, source: 'reference' } : null;
}
