// Savings products (financial/list, financial/detail): public, and for a signed-in caller whether
// they may join each (node savings need a held node).
import type { PledgeProduct } from '@nadi/api/pledge';
import type { AppDeps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { epochClock, miningGenesis } from '../mining/index.ts';
import { holdsNode } from '../node/index.ts';
import { findProduct, listProducts } from './repo.ts';
import { productView, type PledgeTime } from './views.ts';

export type PledgeDeps = Pick<AppDeps, 'db' | 'settings' | 'now' | 'events'>;

/** Now and the epoch clock (savings epochs are the mining epochs: interest is settled with them). */
export async function pledgeTime(deps: Pick<AppDeps, 'settings' | 'now'> & { db: Db | Tx }): Promise<PledgeTime> {
  const now = deps.now();
  const genesis = await miningGenesis(deps.db, now, deps.settings.epochSeconds);
  const clock = epochClock(genesis, { epochSeconds: deps.settings.epochSeconds });
  return { now, clock, epoch: clock.epochOf(now) };
}

async function viewerOf(db: Db, userId: number | null): Promise<{ holdsNode: boolean } | null> {
  return userId === null ? null : { holdsNode: await holdsNode(db, userId) };
}

export async function getProducts(deps: PledgeDeps, userId: number | null): Promise<{ list: PledgeProduct[] }> {
  const [time, products, viewer] = await Promise.all([pledgeTime(deps), listProducts(deps.db), viewerOf(deps.db, userId)]);
  return { list: products.map((p) => productView(p, time, viewer)) };
}

export async function getProduct(deps: PledgeDeps, userId: number | null, id: number): Promise<PledgeProduct> {
  const [time, product, viewer] = await Promise.all([pledgeTime(deps), findProduct(deps.db, id), viewerOf(deps.db, userId)]);
  if (!product) throw new AppError('NOT_FOUND');
  return productView(product, time, viewer);
}
