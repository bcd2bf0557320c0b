// The node tiers as users see them (docs/nodes-and-savings.md, "Node tiers"): live quota, what the
// caller holds, the sale state against the node deadline (the home countdown's), the fee share and
// days-until-return estimates, and the operator's change of a tier.
import type { z } from 'zod';
import { powerText } from '@nadi/economy/economy';
import { toDecimalString, units } from '@nadi/money/money';
import type { NodeSaleState, NodeTier, OperatorTier, tierBody } from '@nadi/api/node';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import type { SessionContext } from '../../lib/register-route.ts';
import { nodeDeadlineText } from '../config/index.ts';
import { miningNow, quoteReferencePrice, type ReferencePrice } from '../mining/index.ts';
import { readReturnBasis } from './holding-repo.ts';
import { estimateReturn, type ReturnBasis } from './return-estimate.ts';
import { feeSharePercent } from './fee-share.ts';
import { findTier, heldWeight, holdersByTier, listTiers, takenByUser, updateTier, type TierRow } from './tier-repo.ts';

type TierDeps = Pick<AppDeps, 'db' | 'settings' | 'now'>;

/** The node deadline, as /common/config answers it. */
export async function nodeDeadline(deps: Pick<AppDeps, 'settings' | 'db'>): Promise<Date> {
  return new Date(await nodeDeadlineText(deps));
}

/** Closed once the deadline has passed (or the operator took the tier off sale); else sold out or on sale. */
export function saleStateOf(tier: Pick<TierRow, 'isOnSale' | 'sold' | 'totalQuota'>, deadline: Date, now: Date): NodeSaleState {
  if (!tier.isOnSale || now.getTime() >= deadline.getTime()) return 'closed';
  return tier.sold >= tier.totalQuota ? 'sold_out' : 'on_sale';
}

/** Why a tier cannot be sold now (its state as read), or null when it can. */
export function saleRefusal(tier: TierRow | null, deadline: Date, now: Date): AppError | null {
  if (!tier) return new AppError('NOT_FOUND');
  const state = saleStateOf(tier, deadline, now);
  if (state === 'closed') return new AppError('NODE_SALE_CLOSED');
  if (state === 'sold_out') return new AppError('NODE_SOLD_OUT');
  return null;
}

/** "2" for 200 bps, "2.5" for 250. */
function percentText(bps: number): string {
  return toDecimalString(BigInt(bps), 2);
}

interface ViewContext {
  deadline: Date;
  now: Date;
  price: ReferencePrice;
  basis: ReturnBasis | null;
  held: Map<number, { held: number; unpaid: number }>;
  /** Σ withdraw_rate over the nodes held now: what the fee dividend is split over. */
  heldWeight: bigint;
  network: NodeTier['network'];
}

function tierView(tier: TierRow, ctx: ViewContext): NodeTier {
  const held = ctx.held.get(tier.id)?.held ?? 0;
  const estimate = estimateReturn(tier, ctx.basis, ctx.price.price);
  return {
    id: tier.id,
    level_id: tier.levelId,
    name: tier.name,
    price_usdt: toDecimalString(tier.priceUsdt),
    total_quota: tier.totalQuota,
    limited_quota_num: Math.max(0, tier.totalQuota - tier.sold),
    sold: tier.sold,
    per_user_limit: tier.perUserLimit,
    held,
    is_bought: held > 0,
    gift_power: powerText(tier.giftPower),
    machine_rate: percentText(tier.machineRateBps),
    withdraw_rate: tier.withdrawRate,
    fee_share_estimate: feeSharePercent(BigInt(tier.withdrawRate), ctx.heldWeight),
    days_until_return: estimate.days,
    return_basis: {
      daily_income_nadi: toDecimalString(estimate.dailyIncomeNadi),
      reference_price: toDecimalString(ctx.price.price),
      epoch: ctx.basis?.epoch ?? null,
    },
    network: ctx.network,
    sale_state: saleStateOf(tier, ctx.deadline, ctx.now),
    deadline: ctx.deadline.toISOString(),
  };
}

async function viewContext(deps: TierDeps, userId: number | null): Promise<ViewContext> {
  const m = await miningNow(deps);
  const now = m.now;
  const [deadline, price, basis, held, weight] = await Promise.all([
    nodeDeadline(deps),
    quoteReferencePrice(deps.db, now, m.params),
    readReturnBasis(deps.db),
    userId === null ? Promise.resolve(new Map<number, { held: number; unpaid: number }>()) : takenByUser(deps.db, userId),
    heldWeight(deps.db),
  ]);
  return { deadline, now, price, basis, held, heldWeight: weight, network: { chain_id: deps.settings.chainId, name: deps.settings.chainName } };
}

export async function nodeTiers(deps: TierDeps, userId: number | null): Promise<{ list: NodeTier[]; deadline: string }> {
  const [tiers, ctx] = await Promise.all([listTiers(deps.db), viewContext(deps, userId)]);
  return { list: tiers.map((t) => tierView(t, ctx)), deadline: ctx.deadline.toISOString() };
}

export async function nodeTier(deps: TierDeps, userId: number | null, id: number): Promise<NodeTier> {
  const [tier, ctx] = await Promise.all([findTier(deps.db, id), viewContext(deps, userId)]);
  if (!tier) throw new AppError('NOT_FOUND');
  return tierView(tier, ctx);
}

/** The console's tiers: each tier's editable fields as stored (tierBody's units), what is sold and how many hold it. */
export async function operatorTiers(deps: TierDeps): Promise<{ list: OperatorTier[] }> {
  const [tiers, holders, deadline] = await Promise.all([listTiers(deps.db), holdersByTier(deps.db), nodeDeadline(deps)]);
  const now = deps.now();
  return {
    list: tiers.map((t) => ({
      id: t.id,
      level_id: t.levelId,
      name: t.name,
      price_usdt: toDecimalString(t.priceUsdt),
      total_quota: t.totalQuota,
      per_user_limit: t.perUserLimit,
      gift_power: powerText(t.giftPower),
      machine_rate_bps: t.machineRateBps,
      withdraw_rate: t.withdrawRate,
      is_on_sale: t.isOnSale,
      sold: t.sold,
      holders: holders.get(t.id) ?? 0,
      sale_state: saleStateOf(t, deadline, now),
    })),
  };
}

/** Operators: changes a tier; a quota below what is sold (held and held for wallet orders) is NODE_QUOTA_BELOW_SOLD. */
export async function saveTier(deps: AppDeps, session: SessionContext, input: z.output<typeof tierBody>): Promise<NodeTier> {
  const values = {
    name: input.name,
    priceUsdt: input.price_usdt,
    totalQuota: input.total_quota,
    perUserLimit: input.per_user_limit,
    giftPower: units(input.gift_power, 2),
    machineRateBps: input.machine_rate_bps,
    withdrawRate: input.withdraw_rate,
    isOnSale: input.is_on_sale,
  };
  const now = deps.now();
  const saved = await deps.db.transaction(async (tx) => {
    const before = await findTier(tx, input.id);
    const updated = await updateTier(tx, input.id, values, now);
    if (!updated) {
      if (!before) throw new AppError('NOT_FOUND');
      throw new AppError('NODE_QUOTA_BELOW_SOLD', undefined, { params: { sold: String(before.sold) } });
    }
    await recordAudit(tx, { actorId: session.userId, action: 'node.tier', targetType: 'node_tier', targetId: input.id, before, after: updated, at: now });
    return updated;
  });
  return tierView(saved, await viewContext(deps, session.userId));
}
