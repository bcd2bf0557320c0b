import { inviteCodePattern } from '@nadi/api/http';
import { readItem, removeItem, storageKeys, writeItem } from './storage.ts';

/** The query parameter of an invite link: `https://host/?code=AB12CD`. */
export const inviteQueryParam = 'code';

/**
 * Normalises a typed or linked code the way the contract's inviteCodeSchema does (trim, upper
 * case, then the pattern); null when it cannot be an invite code.
 */
export function normaliseInviteCode(value: string | null | undefined): string | null {
  const code = value?.trim().toUpperCase() ?? '';
  return inviteCodePattern.test(code) ? code : null;
}

/**
 * Remembers the code of an invite link in localStorage, so it survives connecting, cancelling and
 * reloading until registration succeeds. A link without a valid code changes nothing.
 */
export function captureInviteCode(search: string): string | null {
  const code = normaliseInviteCode(new URLSearchParams(search).get(inviteQueryParam));
  if (code) writeItem('local', storageKeys.inviteCode, code);
  return code;
}

export function readInviteCode(): string | null {
  return normaliseInviteCode(readItem('local', storageKeys.inviteCode));
}

export function storeInviteCode(code: string): void {
  const normalised = normaliseInviteCode(code);
  if (normalised) writeItem('local', storageKeys.inviteCode, normalised);
}

/** Called once the account exists; a later visit must not reuse someone else's code. */
export function clearInviteCode(): void {
  removeItem('local', storageKeys.inviteCode);
}
