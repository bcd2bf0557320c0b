import { describe, expect, it } from 'vitest';
import { decideAfterUserFetch, decideGuard, type GuardInput } from './guards.ts';

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

  it('loads the user when there is a token but no user name, on any route', () => {
    expect(decideGuard({ ...visitor, isAuth: true, hasToken: true })).toEqual({ kind: 'fetch-user' });
    expect(decideGuard({ ...visitor, hasToken: true })).toEqual({ kind: 'fetch-user' });
  });

  it('lets a signed-in user with a loaded name through', () => {
    expect(decideGuard({ ...visitor, isAuth: true, hasToken: true, hasUserName: true })).toEqual({ kind: 'allow' });
  });
});

describe('decideAfterUserFetch', () => {
  it('sends an auth route home when the user cannot be loaded', () => {
    expect(decideAfterUserFetch(true, false)).toEqual({ kind: 'redirect', to: '/' });
  });

  it('shows a public route anyway, and any route once loaded', () => {
    expect(decideAfterUserFetch(false, false)).toEqual({ kind: 'allow' });
    expect(decideAfterUserFetch(true, true)).toEqual({ kind: 'allow' });
  });
});
