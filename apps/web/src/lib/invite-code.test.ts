import { beforeEach, describe, expect, it } from 'vitest';
import { captureInviteCode, clearInviteCode, normaliseInviteCode, readInviteCode, storeInviteCode } from './invite-code.ts';
import { storageKeys } from './storage.ts';
import { installMemoryStorage } from './testing/memory-storage.ts';

let local: Storage;

beforeEach(() => {
  ({ local } = installMemoryStorage());
});

describe('invite code from an invite link', () => {
  it('is kept from ?code= on any route, normalised to upper case', () => {
    expect(captureInviteCode('?code=ab12cd')).toBe('AB12CD');
    expect(readInviteCode()).toBe('AB12CD');
    expect(local.getItem(storageKeys.inviteCode)).toBe('AB12CD');
  });

  it('survives a reload (a new read of storage) and later links without a code', () => {
    captureInviteCode('?code=AB12CD');
    captureInviteCode('?foo=bar');
    captureInviteCode('');
    expect(readInviteCode()).toBe('AB12CD');
  });

  it('ignores a malformed code and keeps the valid one', () => {
    captureInviteCode('?code=GOOD1234');
    expect(captureInviteCode('?code=<script>')).toBeNull();
    expect(captureInviteCode('?code=AB')).toBeNull();
    expect(readInviteCode()).toBe('GOOD1234');
  });

  it('is replaced by a newer link and by a typed code', () => {
    captureInviteCode('?code=FIRST1');
    captureInviteCode('?code=SECOND2');
    expect(readInviteCode()).toBe('SECOND2');
    storeInviteCode(' typed9 ');
    expect(readInviteCode()).toBe('TYPED9');
  });

  it('is forgotten once registration succeeded', () => {
    captureInviteCode('?code=AB12CD');
    clearInviteCode();
    expect(readInviteCode()).toBeNull();
  });

  it('treats a tampered stored value as absent', () => {
    local.setItem(storageKeys.inviteCode, 'not a code!');
    expect(readInviteCode()).toBeNull();
  });
});

describe('normaliseInviteCode', () => {
  it('follows the contract pattern: 6 to 12 letters or digits', () => {
    expect(normaliseInviteCode('abcdef')).toBe('ABCDEF');
    expect(normaliseInviteCode('ABCDEFGHIJKL')).toBe('ABCDEFGHIJKL');
    expect(normaliseInviteCode('ABCDEFGHIJKLM')).toBeNull();
    expect(normaliseInviteCode('ABC-123')).toBeNull();
    expect(normaliseInviteCode('')).toBeNull();
    expect(normaliseInviteCode(null)).toBeNull();
  });
});
