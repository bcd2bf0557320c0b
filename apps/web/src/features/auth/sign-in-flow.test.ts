import { describe, expect, it } from 'vitest';
import type { LoginBody, LoginData } from '@nadi/api/auth';
import { ApiError, classifyFailure, failureMessage } from '../../lib/api-client.ts';
import { runSignIn, type SignInDeps } from './sign-in-flow.ts';

// The flow's decisions with the outside world faked: what the server and the wallet answer is
// the input here, and what the user is shown next is the outcome.

const address = '0x2222222222222222222222222222222222222222';
const signature = `0x${'ab'.repeat(65)}`;

function apiError(http: number, body: unknown): ApiError {
  const failure = classifyFailure(http, body);
  return new ApiError(
    failure,
    failureMessage(failure, (key) => key),
  );
}

interface World {
  isRegistered?: boolean;
  storedCode?: string | null;
  signResult?: () => Promise<string>;
  loginAnswers?: ((body: LoginBody) => LoginData | ApiError)[];
}

function makeDeps(world: World) {
  const log = { messages: 0, signatures: 0, logins: [] as LoginBody[], steps: [] as string[], sessions: 0, storedCode: world.storedCode ?? null };
  const answers = [...(world.loginAnswers ?? [])];
  const deps: SignInDeps = {
    isRegistered: async () => world.isRegistered ?? false,
    getMessage: async () => `message ${(log.messages += 1)}`,
    sign: async () => {
      log.signatures += 1;
      return world.signResult ? world.signResult() : signature;
    },
    login: async (body) => {
      log.logins.push(body);
      const answer = answers.shift()?.(body) ?? { token: 't', expires_in_ms: 360_000, is_new_user: false };
      if (answer instanceof ApiError) throw answer;
      return answer;
    },
    readInviteCode: () => log.storedCode,
    storeInviteCode: (code) => (log.storedCode = code),
    clearInviteCode: () => (log.storedCode = null),
    startSession: () => (log.sessions += 1),
    onStep: (step) => log.steps.push(step),
  };
  return { deps, log };
}

const newUser = (): LoginData => ({ token: 't', expires_in_ms: 360_000, is_new_user: true });

describe('runSignIn', () => {
  it('signs a registered address in without sending an invite code', async () => {
    const { deps, log } = makeDeps({ isRegistered: true, storedCode: 'OLDCODE1' });
    expect(await runSignIn(deps, { address })).toEqual({ kind: 'signed-in', isNewUser: false });
    expect(log.logins[0]).toMatchObject({ address, message: 'message 1', sign_message: signature, code: '' });
    expect(log.steps).toEqual(['preparing', 'signing', 'verifying']);
    expect(log.storedCode).toBe('OLDCODE1');
  });

  it('asks a new address for an invite code before any signature when none is stored', async () => {
    const { deps, log } = makeDeps({ isRegistered: false });
    expect(await runSignIn(deps, { address })).toEqual({ kind: 'need-invite', isRefused: false, signed: null });
    expect(log.signatures).toBe(0);
  });

  it('registers a new address with the code of its invite link, then forgets the code', async () => {
    const { deps, log } = makeDeps({ isRegistered: false, storedCode: 'LINK1234', loginAnswers: [newUser] });
    expect(await runSignIn(deps, { address })).toEqual({ kind: 'signed-in', isNewUser: true });
    expect(log.logins[0]?.code).toBe('LINK1234');
    expect(log.storedCode).toBeNull();
  });

  it('on INVITE_REQUIRED keeps the signature and posts it again with the typed code', async () => {
    const required = () => apiError(401, { code: 200, msg: 'invite', data: null, reason: 'INVITE_REQUIRED' });
    const { deps, log } = makeDeps({ isRegistered: true, loginAnswers: [required, newUser] });
    const first = await runSignIn(deps, { address });
    expect(first).toMatchObject({ kind: 'need-invite', isRefused: false, signed: { address, signature } });
    const signed = first.kind === 'need-invite' ? first.signed : null;
    expect(await runSignIn(deps, { address, typedCode: 'TYPED123', signed })).toEqual({ kind: 'signed-in', isNewUser: true });
    expect(log.signatures).toBe(1);
    expect(log.logins.map((body) => body.code)).toEqual(['', 'TYPED123']);
  });

  it('on INVITE_INVALID forgets the stored code and asks again, saying it was refused', async () => {
    const invalid = () => apiError(400, { code: 400, msg: 'unknown code', data: null, reason: 'INVITE_INVALID' });
    const { deps, log } = makeDeps({ isRegistered: false, storedCode: 'WRONG123', loginAnswers: [invalid] });
    expect(await runSignIn(deps, { address })).toMatchObject({ kind: 'need-invite', isRefused: true });
    expect(log.storedCode).toBeNull();
  });

  it('keeps a typed code that was refused, so the field still shows it', async () => {
    const invalid = () => apiError(400, { code: 400, msg: 'unknown code', data: null, reason: 'INVITE_INVALID' });
    const { deps } = makeDeps({ isRegistered: false, loginAnswers: [invalid] });
    const signed = { address, message: 'kept message', signature };
    expect(await runSignIn(deps, { address, typedCode: 'TYPO1234', signed })).toEqual({
      kind: 'need-invite',
      isRefused: true,
      signed,
      refusedCode: 'TYPO1234',
    });
  });

  it('signs a fresh message when the kept one expired meanwhile', async () => {
    const expired = () => apiError(400, { code: 400, msg: 'expired', data: null, reason: 'SIWE_EXPIRED' });
    const { deps, log } = makeDeps({ isRegistered: false, loginAnswers: [expired, newUser] });
    const signed = { address, message: 'old message', signature };
    expect(await runSignIn(deps, { address, typedCode: 'TYPED123', signed })).toEqual({ kind: 'signed-in', isNewUser: true });
    expect(log.signatures).toBe(1);
    expect(log.logins.map((body) => body.message)).toEqual(['old message', 'message 1']);
  });

  it('reports a canceled, failed or malformed signature without calling login', async () => {
    const rejected = makeDeps({ isRegistered: true, signResult: () => Promise.reject(Object.assign(new Error('no'), { code: 4001 })) });
    expect(await runSignIn(rejected.deps, { address })).toEqual({ kind: 'canceled' });
    const failed = makeDeps({ isRegistered: true, signResult: () => Promise.reject(Object.assign(new Error('bad'), { code: -32602 })) });
    expect(await runSignIn(failed.deps, { address })).toEqual({ kind: 'failed', messageKey: 'wallet.paramsError' });
    const invalid = makeDeps({ isRegistered: true, signResult: async () => '0xdeadbeef' });
    expect(await runSignIn(invalid.deps, { address })).toEqual({ kind: 'invalid' });
    expect([rejected, failed, invalid].flatMap(({ log }) => log.logins)).toEqual([]);
  });

  it('shows the server message when the signature is refused', async () => {
    const refused = () => apiError(400, { code: 400, msg: 'Signature could not be verified', data: null, reason: 'SIWE_SIGNATURE_INVALID' });
    const { deps, log } = makeDeps({ isRegistered: true, loginAnswers: [refused] });
    expect(await runSignIn(deps, { address })).toEqual({ kind: 'error', message: 'Signature could not be verified' });
    expect(log.sessions).toBe(0);
  });
});
