// The reference price of NADI in USDT (docs/economy.md, "Reference price"): the spot market's
// time-weighted average over the window before a moment, else the operator's configured price
// before the market has ever traded. Destroy mining values NADI at it; settlement values destroy
// miners' budgets at it (at the epoch's end).
import { units } from '@nadi/money/money';
import { miningDefaults, type MiningParams } from '@nadi/economy/economy';
import type { Db, Tx } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { readSetting } from '../config/index.ts';
import { timeWeightedPrice } from '../market/index.ts';

/**
 * The wallet's `priceSettingKeys.nadiReferencePrice` and the market's symbol, named here rather than
 * imported: the wallet and market indexes reach the user module (through auth), which creates the
 * trial miner through this module, and that cycle is avoided. reference-price.test.ts pins both.
 */
export const referencePriceSettingKey = 'nadi_reference_price';
export const referenceSymbol = 'NADI-USDT';
/** The price used for quotes moves once a minute, so a preview stays confirmable for the rest of the minute. */
export const referenceStepMs = 60_000;

export interface ReferencePrice {
  /** USDT base units per whole NADI. */
  price: bigint;
  source: 'market' | 'reference';
}

/**
 * The reference price at `at`: each trade's price weighted by how long it stood as the last price in
 * [at − window, at) (the last trade at or before the window's start stands from the start; trades in
 * the same millisecond weigh by their sequence, only the last one stands), rounded down. When the
 * market's first trade falls inside the window, the average runs from that trade. No trade before
 * `at` at all: the configured price.
 */
export async function referencePrice(db: Db | Tx, at: Date, params: Pick<MiningParams, 'referenceWindowSeconds'> = miningDefaults): Promise<ReferencePrice> {
  const end = at.getTime();
  const start = end - params.referenceWindowSeconds * 1000;
  const { weighted, span } = await timeWeightedPrice(db, referenceSymbol, start, end);
  if (weighted != null && span != null && BigInt(span) > 0n) {
    const price = BigInt(weighted) / BigInt(span);
    if (price > 0n) return { price, source: 'market' };
  }
  return configuredPrice(db);
}

/** The reference price quotes use now: the one at the start of the current minute (see referenceStepMs). */
export async function quoteReferencePrice(
  db: Db | Tx,
  now: Date,
  params: Pick<MiningParams, 'referenceWindowSeconds'> = miningDefaults,
): Promise<ReferencePrice> {
  return referencePrice(db, new Date(Math.floor(now.getTime() / referenceStepMs) * referenceStepMs), params);
}

async function configuredPrice(db: Db | Tx): Promise<ReferencePrice> {
  const value = await readSetting(db, referencePriceSettingKey);
  if (typeof value !== 'string') throw new AppError('PRICE_UNAVAILABLE');
  const price = units(value);
  if (price <= 0n) throw new AppError('PRICE_UNAVAILABLE');
  return { price, source: 'reference' };
}
