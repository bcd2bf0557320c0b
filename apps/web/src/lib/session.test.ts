import { beforeEach, describe, expect, it } from 'vitest';
import type { UserInfo } from '@nadi/api/user';
import { createSessionStore, sessionIdleMs } from './session.ts';
import { storageKeys } from './storage.ts';
import { installMemoryStorage } from './testing/memory-storage.ts';

let sessionArea: Storage;
let now = 0;
const clock = () => now;

const user: UserInfo = {
  id: 1,
  code: 'AB12CD34',
  invite_code: 'AB12CD34',
  invite_link: 'http://localhost/?code=AB12CD34',
  name: 'Ada',
  wallet_address: '0x1111111111111111111111111111111111111111',
  level: 1,
  zhi_num: 0,
  team_num: 0,
  me_performance: '0',
  team_performance: '0',
  node_level: null,
  referrer_code: null,
  created_at: '2026-01-01T00:00:00.000Z',
};

beforeEach(() => {
  ({ session: sessionArea } = installMemoryStorage());
  now = 1_000_000;
});

describe('session store', () => {
  it('keeps the token for 360000 ms of inactivity, then forgets it', () => {
    const store = createSessionStore(clock);
    store.start({ token: 'tok', walletAddress: user.wallet_address });
    now += sessionIdleMs - 1;
    expect(store.getToken()).toBe('tok');
    now += 1;
    expect(store.getToken()).toBeNull();
    expect(sessionArea.getItem(storageKeys.session)).toBeNull();
  });

  it('renews the expiry on activity', () => {
    const store = createSessionStore(clock);
    store.start({ token: 'tok', walletAddress: user.wallet_address });
    now += sessionIdleMs - 10;
    store.renew();
    now += sessionIdleMs - 10;
    expect(store.getToken()).toBe('tok');
  });

  it('survives a reload in the same tab through sessionStorage', () => {
    createSessionStore(clock).start({ token: 'tok', walletAddress: user.wallet_address });
    const reloaded = createSessionStore(clock);
    expect(reloaded.getToken()).toBe('tok');
    expect(reloaded.get().walletAddress).toBe(user.wallet_address);
  });

  it('clears token, user info, wallet address and invite url on logout', () => {
    const store = createSessionStore(clock);
    store.start({ token: 'tok', walletAddress: user.wallet_address });
    store.setUser(user);
    expect(store.get().inviteUrl).toBe(user.invite_link);
    store.clear();
    expect(store.get()).toEqual({ token: null, expiresAtMs: 0, user: null, walletAddress: null, inviteUrl: null });
    expect(createSessionStore(clock).getToken()).toBeNull();
  });

  it('tells subscribers about sign-in and sign-out', () => {
    const store = createSessionStore(clock);
    let calls = 0;
    const stop = store.subscribe(() => (calls += 1));
    store.start({ token: 'tok', walletAddress: user.wallet_address });
    store.clear();
    stop();
    store.start({ token: 'tok2', walletAddress: user.wallet_address });
    expect(calls).toBe(2);
  });

  it('ignores a corrupted stored session', () => {
    sessionArea.setItem(storageKeys.session, '{not json');
    expect(createSessionStore(clock).getToken()).toBeNull();
  });
});
