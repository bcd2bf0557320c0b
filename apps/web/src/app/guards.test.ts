import { describe, expect, it } from 'vitest';
import { decideAfterUserFailure, decideGuard, type GuardInput } from './guards.ts';

const visitor: GuardInput = { isAuth: false, isFirstVisitCheck: false, hasToken: false, hasUserName: false, hasVisitedSecurityCheck: true };

describe('decideGuard (docs/product.md section 2)', () => {
  it('sends the first visit at / to the security check once', () => {
    const home = { ...visitor, isFirstVisitCheck: true, hasVisitedSecurityCheck: false };
    expect(decideGuard(home)).toEqual({ kind: 'redirect', to: '/security-check' });
    expect(decideGuard({ ...home, hasVisitedSecurityCheck: true })).toEqual({ kind: 'allow' });
  });

  it('does not send other routes through the security check', () => {
    expect(decideGuard({ ...visitor, hasVisitedSecurityCheck: false })).toEqual({ kind: 'allow' });
  });

  it('sends an auth route without a token home', () => {
    expect(decideGuard({ ...visitor, isAuth: true })).toEqual({ kind: 'redirect', to: '/' });
  });

  it('trusts a token without a user name and loads the user beside the screen, on any route', () => {
    expect(decideGuard({ ...visitor, isAuth: true, hasToken: true })).toEqual({ kind: 'allow-loading-user' });
    expect(decideGuard({ ...visitor, hasToken: true })).toEqual({ kind: 'allow-loading-user' });
  });

  it('lets a signed-in user with a loaded name through', () => {
    expect(decideGuard({ ...visitor, isAuth: true, hasToken: true, hasUserName: true })).toEqual({ kind: 'allow' });
  });
});

describe('decideAfterUserFailure', () => {
  it('sends a screen that needs a session home when the user could not be read; a public one stays', () => {
    expect(decideAfterUserFailure(true)).toEqual({ kind: 'redirect', to: '/' });
    expect(decideAfterUserFailure(false)).toEqual({ kind: 'allow' });
  });
});
