import { createSiweMessage, generateSiweNonce, parseSiweMessage } from 'viem/siwe';
import { getAddress, isAddress } from 'viem';
import { AppError } from '../../lib/app-error.ts';

export interface SiwePolicy {
  /** Domains a message may be issued for (host[:port]); the first is used when the request's own host is not listed. */
  domains: readonly string[];
  /** Scheme and host of the site, e.g. http://localhost:8080. */
  origin: string;
  chainId: number;
  statement: string;
  ttlMs: number;
}

export interface IssuedMessage {
  message: string;
  nonce: string;
  issuedAt: Date;
  expiresAt: Date;
}

export function issueMessage(policy: SiwePolicy, address: string, requestHost: string | undefined, now: Date): IssuedMessage {
  const domain = requestHost && policy.domains.includes(requestHost) ? requestHost : policy.domains[0];
  if (!domain) throw new Error('SiwePolicy.domains is empty');
  const nonce = generateSiweNonce();
  const expiresAt = new Date(now.getTime() + policy.ttlMs);
  const scheme = new URL(policy.origin).protocol.replace(':', '');
  const message = createSiweMessage({
    address: getAddress(address),
    chainId: policy.chainId,
    domain,
    nonce,
    uri: `${scheme}://${domain}`,
    version: '1',
    statement: policy.statement,
    issuedAt: now,
    expirationTime: expiresAt,
  });
  return { message, nonce, issuedAt: now, expiresAt };
}

export interface CheckedMessage {
  nonce: string;
  address: `0x${string}`;
}

/**
 * Checks every field of a signed-in message against the policy before any signature work, so each
 * kind of mismatch gets its own reason. The exact text is later compared with the issued one too.
 */
export function checkMessage(policy: SiwePolicy, message: string, claimedAddress: string, now: Date): CheckedMessage {
  const fields = parseSiweMessage(message);
  const { address, chainId, domain, nonce, uri, version } = fields;
  if (!address || !isAddress(address) || !chainId || !domain || !nonce || !uri || version !== '1') {
    throw new AppError('SIWE_MALFORMED');
  }
  if (!policy.domains.includes(domain)) throw new AppError('SIWE_WRONG_DOMAIN');
  if (!isSameSite(uri, domain)) throw new AppError('SIWE_WRONG_URI');
  if (chainId !== policy.chainId) throw new AppError('SIWE_WRONG_CHAIN');
  if (address.toLowerCase() !== claimedAddress.toLowerCase()) throw new AppError('SIWE_WRONG_ADDRESS');
  if (!fields.expirationTime || fields.expirationTime.getTime() <= now.getTime()) throw new AppError('SIWE_EXPIRED');
  if (fields.notBefore && fields.notBefore.getTime() > now.getTime()) throw new AppError('SIWE_NOT_YET_VALID');
  return { nonce, address: getAddress(address) };
}

function isSameSite(uri: string, domain: string): boolean {
  try {
    return new URL(uri).host === domain;
  } catch {
    return false;
  }
}
