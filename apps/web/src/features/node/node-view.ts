// What the node screens show of a tier (docs/nodes-and-savings.md): its quota as a bar, whether it
// can be bought and why not, the days-until-return estimate with its basis, and the level label.
// Pure, so every state is tested without a screen.
import { formatAmount } from '@nadi/money/money';
import type { NodeSaleState, NodeTier } from '@nadi/api/node';
import { parseRouteId } from '../../lib/route-id.ts';

/** Tier ids the contract accepts (`node/detail`: 1–100). */
export const tierIdMax = 100;

/**
 * The tier id of `/node/:id`, or null when it is missing or not one: the screen says so rather
 * than asking the server for nonsense.
 */
export function parseTierId(param: string | undefined): number | null {
  return parseRouteId(param, tierIdMax);
}

/** "T3": how docs/product.md section 3 names a node level. */
export function levelLabel(levelId: number): string {
  return `T${levelId}`;
}

/** A count of nodes grouped as amounts are ("5,000"), so the figures on a card read alike. */
export function formatCount(count: number): string {
  return formatAmount(BigInt(Math.trunc(count)), { decimals: 0 });
}

export type QuotaTone = 'none' | 'low' | 'ok';

/** At or below this share of the quota left (basis points), the bar says so. */
export const lowQuotaBps = 1_000;

export interface QuotaView {
  left: number;
  total: number;
  /** Share of the quota still for sale, 0–10,000 basis points: the bar's width. */
  leftBps: number;
  tone: QuotaTone;
}

/** The quota bar: what is left of the total (never below 0 nor above the total, whatever arrives). */
export function quotaView(tier: Pick<NodeTier, 'limited_quota_num' | 'total_quota'>): QuotaView {
  const total = Math.max(0, tier.total_quota);
  const left = Math.min(total, Math.max(0, tier.limited_quota_num));
  const leftBps = total === 0 ? 0 : Math.floor((left * 10_000) / total);
  const tone: QuotaTone = left === 0 ? 'none' : leftBps <= lowQuotaBps ? 'low' : 'ok';
  return { left, total, leftBps, tone };
}

/**
 * The sale state on screen: the server's, except that a sale the phone's clock sees past the
 * deadline reads closed at once (the next refetch confirms it), and nothing left reads sold out.
 */
export function saleStateAt(tier: Pick<NodeTier, 'sale_state' | 'deadline' | 'limited_quota_num'>, nowMs: number): NodeSaleState {
  if (tier.sale_state !== 'on_sale') return tier.sale_state;
  const deadlineMs = Date.parse(tier.deadline);
  if (Number.isFinite(deadlineMs) && nowMs >= deadlineMs) return 'closed';
  return tier.limited_quota_num <= 0 ? 'sold_out' : 'on_sale';
}

/** Why the buyer cannot buy one more of the tier now, or null when they can. */
export type BuyBlock = 'closed' | 'sold_out' | 'limit' | null;

export function buyBlock(tier: Pick<NodeTier, 'sale_state' | 'deadline' | 'limited_quota_num' | 'held' | 'per_user_limit'>, nowMs: number): BuyBlock {
  const state = saleStateAt(tier, nowMs);
  if (state !== 'on_sale') return state;
  return tier.held >= tier.per_user_limit ? 'limit' : null;
}

/** The translation key of a sale state's chip. */
export const saleStateKeys: Record<NodeSaleState, string> = {
  on_sale: 'node.state.onSale',
  sold_out: 'node.state.soldOut',
  closed: 'node.state.closed',
};

/** The translation key of why a tier cannot be bought, for the detail's buy section. */
export const buyBlockKeys: Record<Exclude<BuyBlock, null>, string> = {
  closed: 'node.buy.blockedClosed',
  sold_out: 'node.buy.blockedSoldOut',
  limit: 'node.buy.blockedLimit',
};

export type ReturnEstimate =
  /** Days at today's figures, with what they rest on (the contract's `return_basis`). */
  | { kind: 'days'; days: number; dailyIncome: string; price: string; epoch: number | null }
  /** Nothing settled yet to base it on: the screen says so instead of a made-up number. */
  | { kind: 'none' };

export function returnEstimate(tier: Pick<NodeTier, 'days_until_return' | 'return_basis'>): ReturnEstimate {
  const days = tier.days_until_return;
  if (days === null || days < 0) return { kind: 'none' };
  const basis = tier.return_basis;
  return { kind: 'days', days, dailyIncome: basis.daily_income_nadi, price: basis.reference_price, epoch: basis.epoch };
}

/**
 * The tiers in the order shown: by level (T1 first), then id, so the list does not reshuffle when
 * the server sends them another way.
 */
export function sortTiers<T extends Pick<NodeTier, 'level_id' | 'id'>>(tiers: readonly T[]): T[] {
  return [...tiers].sort((a, b) => a.level_id - b.level_id || a.id - b.id);
}
