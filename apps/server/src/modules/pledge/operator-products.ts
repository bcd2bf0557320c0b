// The console's savings products (docs/operator.md "Platform", docs/nodes-and-savings.md "Savings"):
// every product with its stored numbers, and an admin's create or edit. The table's CHECKs are the
// contract's input rules (pledgeProductBody); what depends on the stored row is checked here under the
// product's row lock: the kind is fixed once anyone joined, and the cap is never below what is pledged.
// A position copies the product's day_rate_ppm (and a locked one its end epoch) when it is joined, so a
// rate or term change applies to new joins only; a joint product's epoch budget is read by each
// settlement, so its change applies from the next settlement run to every joint position.
import { asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { toDecimalString } from '@nadi/money/money';
import type { OperatorPledgeProduct, PledgeKind, pledgeProductBody } from '@nadi/api/pledge';
import type { AppDeps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { pledgeProducts } from './schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import type { SessionContext } from '../../lib/register-route.ts';
import { productStatusOf } from './rates.ts';

type StoredProduct = typeof pledgeProducts.$inferSelect;
interface PositionCounts {
  positions: number;
  active: number;
}

async function positionCounts(db: Db | Tx, productId: number | null): Promise<Map<number, PositionCounts>> {
  const rows = rowsOf<{ product_id: number; positions: number; active: number }>(
    await db.execute(sql`
      select product_id, count(*)::int as positions, (count(*) filter (where status = 'active'))::int as active
        from pledge_positions ${productId === null ? sql`` : sql`where product_id = ${productId}`}
       group by product_id`),
  );
  return new Map(rows.map((r) => [Number(r.product_id), { positions: Number(r.positions), active: Number(r.active) }]));
}

function operatorView(p: StoredProduct, counts: PositionCounts | undefined, now: Date): OperatorPledgeProduct {
  return {
    id: p.id,
    kind: p.kind as PledgeKind,
    name: p.name,
    term_epochs: p.termEpochs,
    min_pledge: toDecimalString(p.minPledge),
    day_rate_ppm: p.dayRatePpm,
    epoch_budget: p.epochBudget === null ? null : toDecimalString(p.epochBudget),
    pool_cap: toDecimalString(p.poolCap),
    total: toDecimalString(p.total),
    starts_at: p.startsAt.toISOString(),
    ends_at: p.endsAt.toISOString(),
    is_enabled: p.isEnabled,
    sort: p.sort,
    status: productStatusOf(p, now),
    positions: counts?.positions ?? 0,
    active_positions: counts?.active ?? 0,
  };
}

/** Every product, enabled or not, in display order. */
export async function operatorProducts(deps: Pick<AppDeps, 'db' | 'now'>): Promise<{ list: OperatorPledgeProduct[] }> {
  const [rows, counts] = await Promise.all([
    deps.db.select().from(pledgeProducts).orderBy(asc(pledgeProducts.sort), asc(pledgeProducts.id)),
    positionCounts(deps.db, null),
  ]);
  const now = deps.now();
  return { list: rows.map((p) => operatorView(p, counts.get(p.id), now)) };
}

/**
 * Creates (no id) or edits a product, with its audit line `pledge.product` (before and after) in the
 * same transaction. An edit locks the product's row first: a join's cap update waits for it (and then
 * checks the new cap), and a join that came first is counted, so neither check can be raced.
 */
export async function saveOperatorProduct(
  deps: Pick<AppDeps, 'db' | 'now'>,
  session: SessionContext,
  input: z.output<typeof pledgeProductBody>,
): Promise<OperatorPledgeProduct> {
  const now = deps.now();
  const values = {
    kind: input.kind,
    name: input.name,
    termEpochs: input.term_epochs,
    minPledge: input.min_pledge,
    dayRatePpm: input.day_rate_ppm,
    epochBudget: input.epoch_budget,
    poolCap: input.pool_cap,
    startsAt: new Date(input.starts_at),
    endsAt: new Date(input.ends_at),
    isEnabled: input.is_enabled,
    sort: input.sort,
  };
  return deps.db.transaction(async (tx) => {
    let before: StoredProduct | null = null;
    let saved: StoredProduct | undefined;
    if (input.id === undefined) {
      [saved] = await tx
        .insert(pledgeProducts)
        .values({ ...values, createdAt: now })
        .returning();
    } else {
      [before = null] = await tx.select().from(pledgeProducts).where(eq(pledgeProducts.id, input.id)).for('update');
      if (!before) throw new AppError('NOT_FOUND');
      const counts = (await positionCounts(tx, input.id)).get(input.id);
      if (values.kind !== before.kind && (counts?.positions ?? 0) > 0) throw new AppError('PLEDGE_KIND_FIXED');
      if (values.poolCap < before.total) throw new AppError('PLEDGE_CAP_BELOW_TOTAL', undefined, { params: { total: toDecimalString(before.total) } });
      [saved] = await tx.update(pledgeProducts).set(values).where(eq(pledgeProducts.id, input.id)).returning();
    }
    if (!saved) throw new Error('the product was not written');
    await recordAudit(tx, {
      actorId: session.userId,
      action: 'pledge.product',
      targetType: 'pledge_product',
      targetId: saved.id,
      before,
      after: saved,
      at: now,
    });
    return operatorView(saved, (await positionCounts(tx, saved.id)).get(saved.id), now);
  });
}
