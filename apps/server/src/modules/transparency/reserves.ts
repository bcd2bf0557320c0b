// Reserves (docs/transparency.md, "Reserves"): what the platform's addresses hold on chain at a
// snapshot, each with the proof that the platform controls it, an EIP-191 message naming the address
// and the platform (packages/proof/src/reserves.ts) signed by the address's key. The hot wallet signs
// its own at each capture; the payment gateway is a contract, so its owner signs for it (signer =
// owner: the hot wallet in development, else an admin registers the owner's signature); the gateway's
// treasury and cold addresses are registered by an admin with their signature, checked before they
// are stored (operatorReserves) and again at each capture.
import type { FastifyBaseLogger } from 'fastify';
import { getAddress, verifyMessage, type Address, type Hex } from 'viem';
import type { z } from 'zod';
import type { registerReserveBody } from '@nadi/api/transparency';
import { nadiTokenAbi, paymentGatewayAbi } from '@nadi/chain/artifacts';
import { messageNames, platformOf, reserveMessage } from '@nadi/proof/reserves';
import type { AppSettings } from '../../config.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import type { SessionContext } from '../../lib/register-route.ts';
import { chainContext, hotWalletOf, type ChainContext } from '../onchain/index.ts';
import { findRegistered, insertSnapshotReserves, registeredReserves, upsertRegistered, type SnapshotReserveRow } from './reserves-repo.ts';

export interface CapturedReserves {
  /** The block the balances were read at (0 when no chain is configured). */
  blockNumber: bigint;
  /** The proven addresses' balances added up, in base units. */
  reserves: { NADI: bigint; USDT: bigint };
}

type Role = 'hot_wallet' | 'payment_gateway' | 'treasury' | 'cold';

/** One address's ownership proof, as stored with the snapshot. */
export interface ReserveProof {
  address: Address;
  role: Role;
  label: string;
  message: string;
  signature: Hex;
  signer: Address;
}

const chains = new WeakMap<AppSettings, ChainContext>();

function chainOf(settings: AppSettings): ChainContext {
  let chain = chains.get(settings);
  if (!chain) {
    chain = chainContext(settings);
    chains.set(settings, chain);
  }
  return chain;
}

/** The platform the messages name: PUBLIC_URL's host. */
export function reservePlatform(settings: Pick<AppSettings, 'publicUrl'>): string {
  return platformOf(settings.publicUrl);
}

/** EOAs are checked locally; a contract wallet (ERC-1271) asks the chain, as sign-in does. */
async function isSignedBy(deps: Pick<AppDeps, 'chain'>, signer: Address, message: string, signature: Hex): Promise<boolean> {
  try {
    if (await verifyMessage({ address: signer, message, signature })) return true;
  } catch {
    // Not a plain ECDSA signature: it may still be a contract wallet's.
  }
  try {
    return await deps.chain.verifyMessage({ address: signer, message, signature });
  } catch {
    return false;
  }
}

function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

async function gatewayOwner(chain: ChainContext, gateway: Address, blockNumber?: bigint): Promise<Address> {
  return chain.client.readContract({ address: gateway, abi: paymentGatewayAbi, functionName: 'owner', ...(blockNumber === undefined ? {} : { blockNumber }) });
}

/**
 * The proven reserve addresses at `blockNumber`: the hot wallet (signed now with its key), the gateway
 * (signed by its owner there: by the hot wallet's key when it owns it, else the owner's registered
 * signature), then every registered address whose signature still verifies. An address without a
 * valid proof is left out (it cannot count) and logged. Each address once.
 */
export async function reserveProofs(
  deps: Pick<AppDeps, 'settings' | 'chain'>,
  chain: ChainContext,
  blockNumber: bigint,
  db: Db | Tx,
  log?: FastifyBaseLogger,
): Promise<ReserveProof[]> {
  const platform = reservePlatform(deps.settings);
  const hot = hotWalletOf(deps.settings.hotWalletPrivateKey);
  const hotAddress = hot.account.address;
  const ownProof = async (address: Address, role: Role, label: string): Promise<ReserveProof> => {
    const message = reserveMessage({ platform, address });
    return { address, role, label, message, signature: await hot.account.signMessage({ message }), signer: hotAddress };
  };
  const proofs: ReserveProof[] = [await ownProof(hotAddress, 'hot_wallet', 'Hot wallet')];
  const registered = await registeredReserves(db);
  if (chain.gateway) {
    const owner = await gatewayOwner(chain, chain.gateway, blockNumber);
    const row = registered.find((r) => sameAddress(r.address, chain.gateway!));
    if (sameAddress(owner, hotAddress)) proofs.push(await ownProof(chain.gateway, 'payment_gateway', 'Payment gateway'));
    else if (row && sameAddress(row.signer, owner) && (await isProven(deps, platform, toProof(row)))) proofs.push({ ...toProof(row), role: 'payment_gateway' });
    else log?.warn({ gateway: chain.gateway, owner }, 'reserves: no signature of the payment gateway’s owner is registered; its balances are left out');
  }
  for (const row of registered) {
    if (proofs.some((p) => sameAddress(p.address, row.address))) continue;
    const proof = toProof(row);
    if (sameAddress(proof.signer, proof.address) && (await isProven(deps, platform, proof))) proofs.push(proof);
    else log?.warn({ address: row.address }, 'reserves: a registered address’s signature no longer verifies; its balances are left out');
  }
  return proofs;
}

/** The message names the address and the platform, and the signer signed it. */
async function isProven(deps: Pick<AppDeps, 'chain'>, platform: string, proof: ReserveProof): Promise<boolean> {
  return messageNames(proof.message, { platform, address: proof.address }) && (await isSignedBy(deps, proof.signer, proof.message, proof.signature));
}

function toProof(row: { address: string; role: string; label: string; message: string; signature: string; signer: string }): ReserveProof {
  return {
    address: getAddress(row.address),
    role: row.role as Role,
    label: row.label,
    message: row.message,
    signature: row.signature as Hex,
    signer: getAddress(row.signer),
  };
}

async function balanceAt(chain: ChainContext, token: Address | null, owner: Address, blockNumber: bigint): Promise<bigint> {
  if (!token) return 0n;
  return chain.client.readContract({ address: token, abi: nadiTokenAbi, functionName: 'balanceOf', args: [owner], blockNumber });
}

/**
 * Called while a snapshot is taken, after its proof_snapshots row exists: reads the chain at the
 * block CHAIN_CONFIRMATIONS deep (the depth at which deposits are credited, so the reserves and the
 * liabilities see the same deposits, and no reorganisation can change what the snapshot says), the
 * NADI and USDT of each proven reserve address there, and writes proof_snapshot_reserves. Without a
 * chain (no NADI_ADDRESS): block 0, zero reserves, nothing written. `db`: the snapshot's transaction,
 * when the row is not committed yet.
 */
export async function captureReserves(deps: AppDeps, snapshotId: number, options: { db?: Db | Tx; log?: FastifyBaseLogger } = {}): Promise<CapturedReserves> {
  const zero: CapturedReserves = { blockNumber: 0n, reserves: { NADI: 0n, USDT: 0n } };
  if (!deps.settings.nadiAddress) return zero;
  const db = options.db ?? deps.db;
  const chain = chainOf(deps.settings);
  const head = await chain.client.getBlockNumber({ cacheTime: 0 });
  const depth = BigInt(chain.confirmations) - 1n;
  const blockNumber = head > depth ? head - depth : 0n;
  const proofs = await reserveProofs(deps, chain, blockNumber, db, options.log);
  const rows: SnapshotReserveRow[] = await Promise.all(
    proofs.map(async (p) => ({
      snapshotId,
      address: p.address,
      role: p.role,
      label: p.label,
      message: p.message,
      signature: p.signature,
      signer: p.signer,
      nadi: await balanceAt(chain, chain.nadi, p.address, blockNumber),
      usdt: await balanceAt(chain, chain.usdt, p.address, blockNumber),
    })),
  );
  await insertSnapshotReserves(db, rows);
  return {
    blockNumber,
    reserves: { NADI: rows.reduce((sum, r) => sum + r.nadi, 0n), USDT: rows.reduce((sum, r) => sum + r.usdt, 0n) },
  };
}

/**
 * operatorReserves (admin): registers a reserve address with its signed ownership message. The
 * message must name the address and this platform; the signature must be the address's (for the
 * payment gateway, a contract, its owner's: the address is stored as `payment_gateway`; the gateway's
 * treasury as `treasury`; any other as `cold`). Checked before anything is stored; audited.
 */
export async function registerReserve(
  deps: AppDeps,
  session: SessionContext,
  input: z.output<typeof registerReserveBody>,
): Promise<{ address: string; label: string }> {
  const address = getAddress(input.address);
  const hot = hotWalletOf(deps.settings.hotWalletPrivateKey);
  if (sameAddress(address, hot.account.address)) throw new AppError('BAD_REQUEST', 'the hot wallet signs its own ownership message at each snapshot');
  if (!messageNames(input.message, { platform: reservePlatform(deps.settings), address })) throw new AppError('RESERVE_MESSAGE_INVALID');
  const signature = input.signature as Hex;
  let role: Role = 'cold';
  let signer: Address = address;
  const chain = chainOf(deps.settings);
  if (chain.gateway) {
    try {
      if (sameAddress(address, chain.gateway)) {
        role = 'payment_gateway';
        signer = await gatewayOwner(chain, chain.gateway);
      } else if (sameAddress(address, await chain.client.readContract({ address: chain.gateway, abi: paymentGatewayAbi, functionName: 'treasury' }))) {
        role = 'treasury';
      }
    } catch (error) {
      throw new AppError('CHAIN_UNAVAILABLE', 'the payment gateway could not be read', { cause: error });
    }
  }
  if (!(await isSignedBy(deps, signer, input.message, signature))) throw new AppError('RESERVE_SIGNATURE_INVALID');
  await deps.db.transaction(async (tx) => {
    const before = await findRegistered(tx, address);
    await upsertRegistered(tx, { address, role, label: input.label, message: input.message, signature, signer });
    await recordAudit(tx, {
      actorId: session.userId,
      action: 'transparency.reserve.register',
      targetType: 'reserve_address',
      targetId: address,
      before: before ? { role: before.role, label: before.label, signer: before.signer } : null,
      after: { role, label: input.label, signer },
      at: deps.now(),
    });
  });
  return { address, label: input.label };
}
