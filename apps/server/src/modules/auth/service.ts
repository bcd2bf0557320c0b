import { createHash, randomBytes } from 'node:crypto';
import { verifyMessage, type Hex } from 'viem';
import type { LoginBody, LoginData, LoginMessageData } from '@nadi/api/auth';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/app-error.ts';
import type { SessionContext } from '../../lib/register-route.ts';
import { findUserByAddress, registerUser } from '../user/index.ts';
import { grantDemoFunds } from '../wallet/index.ts';
import { consumeNonce, findLiveNonce, findSessionByTokenHash, insertNonce, insertSession, revokeSession, touchSession } from './repo.ts';
import type { CachedSession } from './session-cache.ts';
import { checkMessage, issueMessage, type SiwePolicy } from './siwe.ts';

/** Renewing on every request would write on every read; once per interval keeps the idle expiry honest. */
const sessionRenewIntervalMs = 15_000;
/** However active, a session ends after this and the wallet signs again. */
const sessionLifetimeMaxMs = 7 * 86_400_000;
const tokenLengthMax = 128;

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function siwePolicy(deps: AppDeps): SiwePolicy {
  return {
    domains: deps.settings.siweDomains,
    origin: deps.settings.publicUrl,
    chainId: deps.settings.chainId,
    statement: deps.settings.signMessage,
    ttlMs: deps.settings.loginMessageTtlMs,
  };
}

export async function createLoginMessage(deps: AppDeps, address: string, host: string | undefined): Promise<LoginMessageData> {
  const issued = issueMessage(siwePolicy(deps), address, host, deps.now());
  await insertNonce(deps.db, {
    nonce: issued.nonce,
    address: address.toLowerCase(),
    messageHash: sha256Hex(issued.message),
    issuedAt: issued.issuedAt,
    expiresAt: issued.expiresAt,
  });
  return {
    message: issued.message,
    nonce: issued.nonce,
    issued_at: issued.issuedAt.toISOString(),
    expiration_time: issued.expiresAt.toISOString(),
  };
}

/**
 * Verifies a signed sign-in message and opens a session. Cheap field checks come first, then the
 * issued-message lookup, then the signature; the nonce is consumed in the same transaction that
 * registers the user and creates the session, so a message opens at most one session.
 */
export async function login(deps: AppDeps, body: LoginBody): Promise<LoginData> {
  const now = deps.now();
  const checked = checkMessage(siwePolicy(deps), body.message, body.address, now);
  const messageHash = sha256Hex(body.message);
  const issued = await findLiveNonce(deps.db, checked.nonce, now);
  if (!issued || issued.messageHash !== messageHash || issued.address !== checked.address.toLowerCase()) {
    throw new AppError('SIWE_NONCE_INVALID');
  }
  const isValid = await verifySignature(deps, checked.address, body.message, body.sign_message as Hex);
  if (!isValid) throw new AppError('SIWE_SIGNATURE_INVALID');

  const token = randomBytes(32).toString('base64url');
  const result = await deps.db.transaction(async (tx) => {
    if (!(await consumeNonce(tx, checked.nonce, messageHash, now))) throw new AppError('SIWE_NONCE_INVALID');
    const existing = await findUserByAddress(tx, checked.address);
    const user = existing ?? (await registerUser(tx, checked.address, body.code || undefined, { now, settings: deps.settings }));
    if (!existing && deps.settings.isDemoGrantOn) await grantDemoFunds(tx, user.id);
    await insertSession(tx, {
      tokenHash: sha256Hex(token),
      userId: user.id,
      address: user.address,
      now,
      expiresAt: new Date(now.getTime() + deps.settings.sessionIdleMs),
    });
    return { isNewUser: existing === null };
  });
  return { token, expires_in_ms: deps.settings.sessionIdleMs, is_new_user: result.isNewUser };
}

/** EOAs are checked locally; anything else (contract wallets, ERC-1271/6492) asks the chain. */
async function verifySignature(deps: AppDeps, address: `0x${string}`, message: string, signature: Hex): Promise<boolean> {
  try {
    if (await verifyMessage({ address, message, signature })) return true;
  } catch {
    // Not a 65-byte ECDSA signature: it may still be a contract wallet's signature.
  }
  try {
    return await deps.chain.verifyMessage({ address, message, signature });
  } catch {
    return false;
  }
}

export async function authenticate(deps: AppDeps, rawHeader: string | undefined): Promise<SessionContext> {
  const token = rawHeader?.replace(/^Bearer\s+/i, '').trim();
  if (!token || token.length > tokenLengthMax) throw new AppError('UNAUTHORIZED');
  const tokenHash = sha256Hex(token);
  const session = deps.sessions?.get(tokenHash) ?? (await readSession(deps, tokenHash));
  if (!session) throw new AppError('UNAUTHORIZED');
  const now = deps.now();
  if (session.expiresAt.getTime() <= now.getTime() || now.getTime() - session.createdAt.getTime() > sessionLifetimeMaxMs) {
    throw new AppError('SESSION_EXPIRED');
  }
  if (now.getTime() - session.lastSeenAt.getTime() >= sessionRenewIntervalMs) {
    const expiresAt = new Date(now.getTime() + deps.settings.sessionIdleMs);
    await touchSession(deps.db, session.id, now, expiresAt);
    // The cached copy (when this is one) renews with the row.
    session.lastSeenAt = now;
    session.expiresAt = expiresAt;
  }
  return { sessionId: session.id, userId: session.userId, address: session.address };
}

/**
 * The user of a token when its session is in this instance's cache and not expired, else null; no
 * database read. The abuse limits (plugins/limits.ts) key a request by it before anything else runs;
 * it is not an authentication (the auth plugin still checks the session).
 */
export function cachedSessionUser(deps: AppDeps, rawToken: string | undefined): number | null {
  const token = rawToken?.replace(/^Bearer\s+/i, '').trim();
  if (!token || token.length > tokenLengthMax || !deps.sessions) return null;
  const session = deps.sessions.get(sha256Hex(token));
  if (!session || session.expiresAt.getTime() <= deps.now().getTime()) return null;
  return session.userId;
}

async function readSession(deps: AppDeps, tokenHash: string): Promise<CachedSession | null> {
  const session = await findSessionByTokenHash(deps.db, tokenHash);
  if (session) deps.sessions?.set(tokenHash, session);
  return session;
}

export async function logout(deps: AppDeps, session: SessionContext): Promise<void> {
  await revokeSession(deps.db, session.sessionId, deps.now());
  deps.sessions?.forget(session.sessionId);
  deps.events.publish({ type: 'session_revoked', sessionId: session.sessionId });
}
