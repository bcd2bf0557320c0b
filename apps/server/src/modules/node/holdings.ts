// My nodes (docs/nodes-and-savings.md, "What a node earns"): the holdings with what each has earned,
// and the earnings per epoch. Another user's holding answers NOT_FOUND, like a missing one.
import type { z } from 'zod';
import { powerText } from '@nadi/economy/economy';
import { toDecimalString } from '@nadi/money/money';
import type { PageQuery } from '@nadi/api/common';
import type { NodeHolding, NodePayMethod, nodeRoutes } from '@nadi/api/node';
import type { Db, Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/app-error.ts';
import { findHolding, holdingViews, listEarnings, listHoldings, type HoldingRow, type HoldingView } from './holding-repo.ts';

function holdingItem(v: HoldingView): NodeHolding {
  const h = v.holding;
  return {
    id: h.id,
    tier_id: h.tierId,
    level_id: v.levelId,
    name: v.name,
    pay_method: h.payMethod as NodePayMethod,
    pay_asset: h.payAsset as NodeHolding['pay_asset'],
    pay_amount: toDecimalString(h.payAmount),
    gift_power: powerText(v.giftPower),
    bought_at: h.createdAt.toISOString(),
    earned: {
      mining_income: toDecimalString(v.miningIncome),
      dividend_nadi: toDecimalString(v.dividendNadi),
      dividend_usdt: toDecimalString(v.dividendUsdt),
    },
  };
}

export async function holdingItemOf(db: Db | Tx, holding: HoldingRow): Promise<NodeHolding> {
  const [view] = await holdingViews(db, [holding]);
  if (!view) throw new Error(`holding ${holding.id} has no view`);
  return holdingItem(view);
}

export async function myNodes(deps: Pick<AppDeps, 'db'>, userId: number, query: PageQuery) {
  const { rows, total } = await listHoldings(deps.db, userId, (query.page - 1) * query.page_size, query.page_size);
  const list = (await holdingViews(deps.db, rows)).map(holdingItem);
  return { list, total, page: query.page, page_size: query.page_size };
}

export async function myEarnings(deps: Pick<AppDeps, 'db'>, userId: number, query: z.output<typeof nodeRoutes.earnings.input>) {
  const holdingId = query.holding_id ?? null;
  if (holdingId !== null && !(await findHolding(deps.db, holdingId, userId))) throw new AppError('NOT_FOUND');
  const { rows, total } = await listEarnings(deps.db, userId, holdingId, (query.page - 1) * query.page_size, query.page_size);
  const list = rows.map((r) => ({
    epoch: r.epoch,
    holding_id: r.holdingId,
    mining_income: toDecimalString(r.miningIncome),
    dividend_nadi: toDecimalString(r.dividendNadi),
    dividend_usdt: toDecimalString(r.dividendUsdt),
  }));
  return { list, total, page: query.page, page_size: query.page_size };
}
