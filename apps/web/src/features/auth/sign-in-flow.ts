import type { LoginBody, LoginData } from '@nadi/api/auth';
import type { ErrorReason } from '@nadi/api/errors';
import { isApiError } from '../../lib/api-client.ts';
import { isUserRejection, isWellFormedSignature, walletMessageKey, type WalletMessageKey } from '../../lib/wallet/wallet-errors.ts';

/** What the sheet shows while the flow runs (docs/product.md section 4, "wallet signing"). */
export type SignInStep = 'preparing' | 'signing' | 'verifying';

/** A signed sign-in message not yet accepted; the server keeps its nonce while an invite is missing. */
export interface SignedMessage {
  address: string;
  message: string;
  signature: string;
}

export type SignInOutcome =
  | { kind: 'signed-in'; isNewUser: boolean }
  /** A new address: ask for an invite code (again, when the one given was refused). */
  | { kind: 'need-invite'; isRefused: boolean; signed: SignedMessage | null; refusedCode?: string }
  | { kind: 'canceled' }
  | { kind: 'failed'; messageKey: WalletMessageKey }
  | { kind: 'invalid' }
  | { kind: 'error'; message: string };

export interface SignInDeps {
  isRegistered(address: string): Promise<boolean>;
  getMessage(address: string): Promise<string>;
  sign(address: string, message: string): Promise<string>;
  login(body: LoginBody): Promise<LoginData>;
  readInviteCode(): string | null;
  storeInviteCode(code: string): void;
  clearInviteCode(): void;
  startSession(data: LoginData, address: string): void;
  onStep(step: SignInStep): void;
}

export interface SignInInput {
  address: string;
  /** What the user just typed in the invite step. */
  typedCode?: string | null;
  /** The signature made before the server asked for an invite code; it is posted again. */
  signed?: SignedMessage | null;
}

/** A reused signature can outlive its message (10 minutes) or nonce; then the user signs anew. */
const staleSignatureReasons = new Set<ErrorReason>(['SIWE_EXPIRED', 'SIWE_NONCE_INVALID']);

type SignResult = { signed: SignedMessage } | { outcome: SignInOutcome };

async function signFreshMessage(deps: SignInDeps, address: string): Promise<SignResult> {
  const message = await deps.getMessage(address);
  deps.onStep('signing');
  let signature: string;
  try {
    signature = await deps.sign(address, message);
  } catch (error) {
    if (isUserRejection(error)) return { outcome: { kind: 'canceled' } };
    return { outcome: { kind: 'failed', messageKey: walletMessageKey(error, 'sign') } };
  }
  if (!isWellFormedSignature(signature)) return { outcome: { kind: 'invalid' } };
  return { signed: { address, message, signature } };
}

/** The code to send: none for a known address, else the typed or remembered one (null: ask). */
async function inviteCodeFor(deps: SignInDeps, input: SignInInput): Promise<string | null> {
  // Coming back from the invite step: the server already said this address needs a code.
  if (input.signed) return input.typedCode ?? deps.readInviteCode();
  // A registered address never sends a code, so a stale one from an old link cannot get in the way.
  if (await deps.isRegistered(input.address)) return '';
  return input.typedCode ?? deps.readInviteCode();
}

/**
 * One sign-in attempt for a connected address: check registration, get a fresh message, have the
 * wallet sign it, send it. An invite refusal keeps the signature, so entering a code does not
 * cost a second signature.
 */
export async function runSignIn(deps: SignInDeps, input: SignInInput): Promise<SignInOutcome> {
  deps.onStep('preparing');
  let signed = input.signed ?? null;
  try {
    if (input.typedCode) deps.storeInviteCode(input.typedCode);
    const code = await inviteCodeFor(deps, input);
    if (code === null) return { kind: 'need-invite', isRefused: false, signed };
    if (!signed) {
      const result = await signFreshMessage(deps, input.address);
      if ('outcome' in result) return result.outcome;
      signed = result.signed;
    }
    deps.onStep('verifying');
    const data = await deps.login({ address: signed.address, message: signed.message, sign_message: signed.signature, code });
    deps.startSession(data, signed.address);
    // docs/product.md section 4 ("Session"): the invite code is kept until registration succeeds, then forgotten.
    if (data.is_new_user) deps.clearInviteCode();
    return { kind: 'signed-in', isNewUser: data.is_new_user };
  } catch (error) {
    if (!isApiError(error)) throw error;
    const { kind, reason } = error.failure;
    if (kind === 'invite-required') return { kind: 'need-invite', isRefused: false, signed };
    if (reason === 'INVITE_INVALID') {
      deps.clearInviteCode();
      // The refused code stays in the field so the user can correct a typo rather than retype it.
      return { kind: 'need-invite', isRefused: true, signed, ...(input.typedCode ? { refusedCode: input.typedCode } : {}) };
    }
    if (input.signed && reason && staleSignatureReasons.has(reason)) {
      return runSignIn(deps, { address: input.address, typedCode: input.typedCode ?? null });
    }
    return { kind: 'error', message: error.displayMessage };
  }
}
