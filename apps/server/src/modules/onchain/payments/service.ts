import { randomBytes } from 'node:crypto';
import { getAddress } from 'viem';
import type { PaymentOrder, PaymentRejectReason } from '@nadi/api/onchain';
import { toDecimalString } from '@nadi/money/money';
import type { AppDeps } from '../../../deps.ts';
import type { AppSettings } from '../../../config.ts';
import { AppError } from '../../../lib/app-error.ts';
import { findUserOrder, insertOrder, type PaymentOrderRow } from './repo.ts';

type PayAsset = PaymentOrder['asset'];

function tokenOf(settings: AppSettings, asset: PayAsset): string | null {
  return asset === 'NADI' ? settings.nadiAddress : settings.usdtAddress;
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
    token_address: getAddress(row.token),
    confirmations: row.confirmations,
    confirmations_required: settings.confirmations,
    tx_hash: row.txHash,
    reject_reason: row.rejectReason as PaymentRejectReason | null,
    created_at: row.createdAt.toISOString(),
    fulfilled_at: row.fulfilledAt ? row.fulfilledAt.toISOString() : null,
  };
}

/**
 * A test order (everywhere but production): pay `amount` of `asset` through the gateway, under a
 * random bytes32 order id that nobody can guess or reuse. Production answers as if the route did
 * not exist.
 */
export async function createTestOrder(deps: AppDeps, userId: number, input: { asset: PayAsset; amount: bigint }): Promise<PaymentOrder> {
  const { settings } = deps;
  if (!settings.isTestOrderOn) throw new AppError('NOT_FOUND');
  const token = tokenOf(settings, input.asset);
  if (!token || !settings.paymentGatewayAddress) throw new AppError('CHAIN_UNAVAILABLE', 'the token or gateway address is not configured');
  const row = await insertOrder(deps.db, {
    orderKey: `0x${randomBytes(32).toString('hex')}`,
    userId,
    kind: 'test',
    asset: input.asset,
    token: token.toLowerCase(),
    amount: input.amount,
    chainId: settings.chainId,
  });
  return toOrder(row, settings);
}

/** The caller's own order; anyone else's id answers NOT_FOUND, exactly like a missing one. */
export async function getOrder(deps: AppDeps, userId: number, id: number): Promise<PaymentOrder> {
  const row = await findUserOrder(deps.db, userId, id);
  if (!row) throw new AppError('NOT_FOUND');
  return toOrder(row, deps.settings);
}
