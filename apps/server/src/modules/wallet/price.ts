import { units } from '@nadi/money/money';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { MarketPriceSource } from '../../lib/market-price.ts';
import { readSetting } from '../config/index.ts';

export const priceSettingKeys = { nadiReferencePrice: 'nadi_reference_price', exchangeFeeBps: 'exchange_fee_bps' } as const;
export const exchangeFeeBpsMax = 1_000n;

export interface NadiPrice {
  /** USDT base units per whole NADI. */
  price: bigint;
  source: 'market' | 'reference';
}

/**
 * The NADI/USDT price for valuations and exchange quotes: the spot market's last price once the
 * market has traded (deps.marketPrice), until then the operator-set reference price.
 */
export async function nadiPrice(db: Db, marketPrice?: MarketPriceSource): Promise<NadiPrice> {
  const market = marketPrice?.current() ?? null;
  if (market !== null && market > 0n) return { price: market, source: 'market' };
  const reference = await readSetting(db, priceSettingKeys.nadiReferencePrice);
  if (typeof reference !== 'string') throw new AppError('PRICE_UNAVAILABLE');
  const price = units(reference);
  if (price <= 0n) throw new AppError('PRICE_UNAVAILABLE');
  return { price, source: 'reference' };
}

export async function exchangeFeeBps(db: Db): Promise<bigint> {
  const value = await readSetting(db, priceSettingKeys.exchangeFeeBps);
  const bps = typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : 30n;
  if (bps < 0n || bps > exchangeFeeBpsMax) throw new Error(`exchange fee of ${bps} bps is outside 0..${exchangeFeeBpsMax}`);
  return bps;
}
