// The demo market's two bots (development only): ordinary users in the same tables with the same
// accounts, whose money moves only through the ledger. Their addresses are derived from a
// constant (a hash, not a key), so nobody holds a private key for them and signing in as them is
// impossible in practice. The maker keeps the book's levels; the taker crosses them so trades
// happen (two users, because self-trade prevention expires an order that meets its own user).
import { keccak256, stringToHex } from 'viem';
import type { Asset } from '@nadi/api/wallet';
import { units } from '@nadi/money/money';
import type { AppSettings } from '../config.ts';
import type { Db } from '../db/client.ts';
import { runFlow, systemAccount, transfer, userAccount } from '../modules/ledger/index.ts';
import { createUserWithAccounts, findUserByAddress } from '../modules/user/index.ts';
import { balanceOfTrade } from '../modules/market/index.ts';

export type DemoRole = 'maker' | 'taker';

export interface DemoUsers {
  makerId: number;
  takerId: number;
}

const demoBots: Record<DemoRole, { address: string; inviteCode: string; name: string }> = {
  maker: { address: botAddress('nadi:demo-market:maker'), inviteCode: 'DEMOMAKER', name: 'Demo market maker' },
  taker: { address: botAddress('nadi:demo-market:taker'), inviteCode: 'DEMOTAKER', name: 'Demo market taker' },
};

/** What each bot's trade account starts with, and what one refill adds. */
export const demoFunds: Record<Asset, bigint> = { NADI: units('200000'), USDT: units('100000') };
/** A bot is refilled when its available balance falls below this share of demoFunds. */
const refillBelowDivisor = 10n;
/** At most one refill per bot, asset and hour: the key names the hour, so a second one replays. */
const refillWindowMs = 3_600_000;

function botAddress(seed: string): string {
  return `0x${keccak256(stringToHex(seed)).slice(-40)}`;
}

export function demoBotAddress(role: DemoRole): string {
  return demoBots[role].address;
}

/**
 * Finds or creates the two bots, referred by the root user (only the root has no referrer), each
 * with the five accounts every user has. Safe to run on every start and concurrently.
 */
export async function ensureDemoUsers(db: Db, settings: AppSettings, now: Date): Promise<DemoUsers> {
  const root = await findUserByAddress(db, settings.rootAddress);
  if (!root) throw new Error('demo market: the root user is missing (the seed runs first)');
  const ids = await db.transaction(async (tx) => {
    const found: Partial<Record<DemoRole, number>> = {};
    for (const role of ['maker', 'taker'] as const) {
      const bot = demoBots[role];
      const user =
        (await findUserByAddress(tx, bot.address)) ??
        (await createUserWithAccounts(tx, { address: bot.address, inviteCode: bot.inviteCode, referrerId: root.id, name: bot.name }, { now, settings }));
      if (!user) throw new Error(`demo market: could not create the ${role} bot`);
      found[role] = user.id;
    }
    return found as Record<DemoRole, number>;
  });
  const users = { makerId: ids.maker, takerId: ids.taker };
  await fundDemoUsers(db, users);
  return users;
}

/** The starting funds, once per bot and asset: the key is fixed, so a second start replays it. */
async function fundDemoUsers(db: Db, users: DemoUsers): Promise<void> {
  for (const userId of [users.makerId, users.takerId]) {
    for (const asset of ['NADI', 'USDT'] as const) await grant(db, userId, asset, `demo-market:fund:${userId}:${asset}`);
  }
}

/**
 * Tops a bot's trade account up by demoFunds when its available balance runs low. Bounded: one
 * refill per bot, asset and hour at most. Returns how many refills were booked.
 */
export async function refillIfLow(db: Db, users: DemoUsers, now: Date): Promise<number> {
  const hour = Math.floor(now.getTime() / refillWindowMs);
  let booked = 0;
  for (const userId of [users.makerId, users.takerId]) {
    for (const asset of ['NADI', 'USDT'] as const) {
      if ((await balanceOfTrade(db, userId, asset)) >= demoFunds[asset] / refillBelowDivisor) continue;
      const outcome = await grant(db, userId, asset, `demo-market:refill:${userId}:${asset}:${hour}`);
      if (!outcome.isReplay) booked += 1;
    }
  }
  return booked;
}

/** A data adjustment from the treasury to the bot's trade account, as tests and the demo grant do. */
function grant(db: Db, userId: number, asset: Asset, idempotencyKey: string) {
  const amount = demoFunds[asset];
  return runFlow(db, {
    idempotencyKey,
    userId,
    type: 'data_adjustment',
    params: { userId, asset, amount },
    legs: [transfer('data_adjustment', systemAccount('treasury', asset), userAccount(userId, 'trade', asset), amount, { reason: 'demo-market' })],
    result: () => null,
  });
}
