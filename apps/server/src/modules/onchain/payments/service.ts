import { randomBytes } from 'node:crypto';
import { getAddress } from 'viem';
import type { GatewayMethod, PaymentOrder, PaymentRejectReason } from '@nadi/api/onchain';
import { toDecimalString } from '@nadi/money/money';
import type { Tx } from '../../../db/client.ts';
import type { AppDeps } from '../../../deps.ts';
import type { AppSettings } from '../../../config.ts';
import { AppError } from '../../../lib/app-error.ts';
import { findUserOrder, insertOrder, type PaymentOrderRow } from './repo.ts';

type PayAsset = PaymentOrder['asset'];

function tokenOf(settings: AppSettings, asset: PayAsset): string | null {
  return asset === 'NADI' ? settings.nadiAddress : settings.usdtAddress;
}

/** Order kinds whose tokens the gateway burns (payAndBurn); every other kind is paid with `pay`. */
const burnedKinds: ReadonlySet<string> = new Set(['destroy']);

export function gatewayMethodOf(kind: string): GatewayMethod {
  return burnedKinds.has(kind) ? 'payAndBurn' : 'pay';
}

function toOrder(row: PaymentOrderRow, settings: AppSettings): PaymentOrder {
  if (!settings.paymentGatewayAddress) throw new AppError('CHAIN_UNAVAILABLE', 'PAYMENT_GATEWAY_ADDRESS is not configured');
  return {
    id: row.id,
    order_key: row.orderKey,
    kind: row.kind,
    asset: row.asset as PayAsset,
    amount: toDecimalString(row.amount),
    status: row.status as PaymentOrder['status'],
    chain_id: row.chainId,
    chain_name: settings.chainName,
    gateway_address: getAddress(settings.paymentGatewayAddress),
    gateway_method: gatewayMethodOf(row.kind),
    token_address: getAddress(row.token),
    confirmations: row.confirmations,
    confirmations_required: settings.confirmations,
    tx_hash: row.txHash,
    reject_reason: row.rejectReason as PaymentRejectReason | null,
    created_at: row.createdAt.toISOString(),
    fulfilled_at: row.fulfilledAt ? row.fulfilledAt.toISOString() : null,
  };
}

export interface NewOrder {
  /** What the order buys; fulfil.ts delivers it. */
  kind: string;
  asset: PayAsset;
  amount: bigint;
}

/**
 * An order to pay `amount` of `asset` through the gateway, under a random bytes32 order id that
 * nobody can guess or reuse. `withOrder` runs in the transaction that inserts it (what the order's
 * kind remembers about it), so both exist or neither.
 */
export async function createPaymentOrder(
  deps: Pick<AppDeps, 'db' | 'settings'>,
  userId: number,
  input: NewOrder,
  withOrder?: (tx: Tx, order: PaymentOrderRow) => Promise<void>,
): Promise<PaymentOrder> {
  const { settings } = deps;
  const token = tokenOf(settings, input.asset);
  if (!token || !settings.paymentGatewayAddress) throw new AppError('CHAIN_UNAVAILABLE', 'the token or gateway address is not configured');
  const row = await deps.db.transaction(async (tx) => {
    const order = await insertOrder(tx, {
      orderKey: `0x${randomBytes(32).toString('hex')}`,
      userId,
      kind: input.kind,
      asset: input.asset,
      token: token.toLowerCase(),
      amount: input.amount,
      chainId: settings.chainId,
    });
    await withOrder?.(tx, order);
    return order;
  });
  return toOrder(row, settings);
}

/** A test order (everywhere but production) buys nothing. Production answers as if the route did not exist. */
export async function createTestOrder(deps: AppDeps, userId: number, input: { asset: PayAsset; amount: bigint }): Promise<PaymentOrder> {
  if (!deps.settings.isTestOrderOn) throw new AppError('NOT_FOUND');
  return createPaymentOrder(deps, userId, { kind: 'test', ...input });
}

/** The caller's own order; anyone else's id answers NOT_FOUND, exactly like a missing one. */
export async function getOrder(deps: AppDeps, userId: number, id: number): Promise<PaymentOrder> {
  const row = await findUserOrder(deps.db, userId, id);
  if (!row) throw new AppError('NOT_FOUND');
  return toOrder(row, deps.settings);
}
