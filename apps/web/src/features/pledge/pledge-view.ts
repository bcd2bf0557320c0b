// How the savings screens read the contract's products and positions (docs/nodes-and-savings.md
// "Savings"): groups in the order docs/economy.md "Savings (pledge)" lists them, what a product allows the caller now, and
// how full its pool is. Names are translated by kind and term (lib/savings-name.ts).
import { unitsOrZero } from '@nadi/money/money';
import type { PledgeKind, PledgePosition, PledgeProduct, PledgeProductStatus } from '@nadi/api/pledge';

/** The order of docs/economy.md "Savings (pledge)": flexible, locked (shortest term first), joint, node. */
export const kindOrder: readonly PledgeKind[] = ['flexible', 'locked', 'joint', 'node'];

export interface ProductGroup {
  kind: PledgeKind;
  products: PledgeProduct[];
}

/** The products by kind in docs/economy.md's order, each kind by term then id; kinds without products left out. */
export function groupProducts(products: readonly PledgeProduct[]): ProductGroup[] {
  return kindOrder
    .map((kind) => ({
      kind,
      products: products.filter((product) => product.kind === kind).sort((a, b) => a.term_epochs - b.term_epochs || a.id - b.id),
    }))
    .filter((group) => group.products.length > 0);
}

export interface Text {
  key: string;
  params: Record<string, string | number>;
}

/** A position's lock term: from its first to its last epoch; 0 without a last one (flexible, joint). */
export function positionTerm(position: Pick<PledgePosition, 'start_epoch' | 'end_epoch'>): number {
  return position.end_epoch === null ? 0 : Math.max(0, position.end_epoch - position.start_epoch + 1);
}

/**
 * Whether the caller may join now, and if not why: the product's own state first, then node
 * savings for node holders only. `can_join` is the server's word for the caller.
 */
export type JoinState = 'open' | 'node-only' | Exclude<PledgeProductStatus, 'open'>;

export function joinState(product: Pick<PledgeProduct, 'status' | 'is_node_only' | 'can_join'>): JoinState {
  if (product.status !== 'open') return product.status;
  if (product.is_node_only && !product.can_join) return 'node-only';
  return 'open';
}

/** The status chip's tone (its CSS modifier). */
export function statusTone(status: PledgeProductStatus): 'open' | 'waiting' | 'off' {
  if (status === 'open') return 'open';
  return status === 'upcoming' ? 'waiting' : 'off';
}

export interface PoolFill {
  /** NADI that can still be pledged before the cap. */
  roomUnits: bigint;
  /** Share of the cap pledged, in basis points (0–10,000), for the bar. */
  filledBps: number;
}

/** How full a product's pool is; a cap of 0 counts as full. */
export function poolFill(product: Pick<PledgeProduct, 'total_pledge' | 'pool_cap'>): PoolFill {
  const total = unitsOrZero(product.total_pledge);
  const cap = unitsOrZero(product.pool_cap);
  if (cap <= 0n) return { roomUnits: 0n, filledBps: 10_000 };
  const room = cap > total ? cap - total : 0n;
  const filled = total >= cap ? 10_000n : (total * 10_000n) / cap;
  return { roomUnits: room, filledBps: Number(filled) };
}
