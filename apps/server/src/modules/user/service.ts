import { randomInt } from 'node:crypto';
import { levelOf } from '@nadi/economy/team';
import type { UserInfo } from '@nadi/api/user';
import { toDecimalString } from '@nadi/money/money';
import type { AppDeps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { shortAddress } from '../../lib/short-address.ts';
import { createUserAccounts } from '../ledger/index.ts';
import { grantTrial, miningNow, type MiningDeps } from '../mining/index.ts';
import { readTeamFigures } from '../team/index.ts';
import { highestNodeLevel } from '../node/index.ts';
import { findUserByAddress, findUserById, findUserByInviteCode, insertUserWithAncestors, type NewUser, type UserRow } from './repo.ts';

/** No 0/O or 1/I: codes are read aloud and typed from screenshots. */
const inviteAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const inviteCodeLength = 8;
const inviteCodeAttemptsMax = 8;

export { shortAddress };

export function newInviteCode(): string {
  let code = '';
  for (let i = 0; i < inviteCodeLength; i += 1) code += inviteAlphabet[randomInt(inviteAlphabet.length)];
  return code;
}

/**
 * Registers a new address under the owner of `inviteCode`. The referrer is fixed here for good.
 * Runs inside the caller's transaction so a failed sign-in leaves no user behind.
 */
export async function registerUser(tx: Tx, address: string, inviteCode: string | undefined, start: UserStart): Promise<UserRow> {
  if (!inviteCode) throw new AppError('INVITE_REQUIRED');
  const referrer = await findUserByInviteCode(tx, inviteCode);
  if (!referrer) throw new AppError('INVITE_INVALID');
  for (let attempt = 0; attempt < inviteCodeAttemptsMax; attempt += 1) {
    const user = await createUserWithAccounts(tx, { address, inviteCode: newInviteCode(), referrerId: referrer.id, name: shortAddress(address) }, start);
    if (user) return user;
    // Either the address registered concurrently (then use it) or the random code collided (retry).
    const existing = await findUserByAddress(tx, address);
    if (existing) return existing;
  }
  throw new Error('could not allocate a unique invite code');
}

/** What a new user starts with beyond the row: the moment and the mining settings of the trial miner. */
export interface UserStart extends MiningDeps {
  now: Date;
}

/**
 * Inserts a user under its referrer with the accounts every user has and the trial miner, in the
 * caller's transaction. Null when the address or the invite code was taken concurrently (the caller
 * rereads or retries).
 */
export async function createUserWithAccounts(tx: Tx, row: NewUser, start: UserStart): Promise<UserRow | null> {
  const user = await insertUserWithAncestors(tx, row);
  if (user) {
    await createUserAccounts(tx, user.id);
    await grantTrial(tx, user.id, start.now, start);
  }
  return user;
}

export async function isRegistered(db: Db, address: string): Promise<boolean> {
  return (await findUserByAddress(db, address)) !== null;
}

/**
 * The signed-in user. The level is the team level (V0–V5) of the figures now under the numbers in
 * force now, as team/info shows it; the counts are the maintained team figures (one row, no tree walk).
 */
export async function getUserInfo(deps: Pick<AppDeps, 'db' | 'settings' | 'now'>, userId: number): Promise<UserInfo> {
  const { db } = deps;
  const user = await findUserById(db, userId);
  if (!user) throw new AppError('UNAUTHORIZED');
  const [figures, m, referrer, nodeLevel] = await Promise.all([
    readTeamFigures(db, user.id),
    miningNow(deps),
    user.referrerId === null ? Promise.resolve(null) : findUserById(db, user.referrerId),
    highestNodeLevel(db, user.id),
  ]);
  return {
    id: user.id,
    code: user.inviteCode,
    invite_code: user.inviteCode,
    invite_link: inviteLink(deps.settings.publicUrl, user.inviteCode),
    name: user.name,
    wallet_address: user.address,
    level: levelOf(figures.teamPerformance, figures.activeDirects, m.params),
    zhi_num: figures.directs,
    team_num: figures.teamSize,
    me_performance: toDecimalString(figures.mePerformance),
    team_performance: toDecimalString(figures.teamPerformance),
    node_level: nodeLevel,
    referrer_code: referrer?.inviteCode ?? null,
    created_at: user.createdAt.toISOString(),
  };
}

export function inviteLink(publicUrl: string, code: string): string {
  return `${publicUrl}/?code=${encodeURIComponent(code)}`;
}
