import { normaliseInviteCode } from '../../lib/invite-code.ts';

/** docs/product.md section 5: the invite code is required; its shape is the contract's inviteCodePattern. */
export function inviteCodeError(value: string): 'auth.inviteRequired' | 'auth.inviteFormat' | null {
  if (value.trim() === '') return 'auth.inviteRequired';
  return normaliseInviteCode(value) ? null : 'auth.inviteFormat';
}
