import { describe, expect, it } from 'vitest';
import { isWellFormedSignature, walletErrorCode, walletMessageKey } from './wallet-errors.ts';

function rpcError(code: number, message = 'error'): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}

/** wagmi and viem wrap the wallet's error; the code sits further down the cause chain. */
function wrapped(inner: unknown): Error {
  return new Error('Connector error', { cause: new Error('Provider error', { cause: inner }) });
}

describe('walletMessageKey (docs/product.md section 8 wallet messages)', () => {
  it('4001 is a rejected connection when connecting and a canceled signature when signing', () => {
    expect(walletMessageKey(rpcError(4001), 'connect')).toBe('wallet.connectRejected');
    expect(walletMessageKey(wrapped(rpcError(4001)), 'sign')).toBe('wallet.signCanceled');
  });

  it('-32602 asks to refresh for a parameter error, -32603 for an internal error', () => {
    expect(walletMessageKey(wrapped(rpcError(-32602)), 'sign')).toBe('wallet.paramsError');
    expect(walletMessageKey(rpcError(-32603), 'connect')).toBe('wallet.internalError');
  });

  it('a missing provider asks to install MetaMask', () => {
    const notFound = Object.assign(new Error('Provider not found.'), { name: 'ProviderNotFoundError' });
    expect(walletMessageKey(notFound, 'connect')).toBe('wallet.installMetaMask');
    expect(walletMessageKey(wrapped(notFound), 'connect')).toBe('wallet.installMetaMask');
  });

  it('anything else is a failed connection or a failed signature', () => {
    expect(walletMessageKey(new Error('boom'), 'connect')).toBe('wallet.connectFailed');
    expect(walletMessageKey(rpcError(-32000), 'sign')).toBe('wallet.signFailed');
    expect(walletMessageKey('not even an error', 'sign')).toBe('wallet.signFailed');
  });

  it('stops on a cyclic cause chain', () => {
    const a: { cause?: unknown } = {};
    const b = { cause: a };
    a.cause = b;
    expect(walletErrorCode(a)).toBeNull();
  });
});

describe('isWellFormedSignature', () => {
  it('accepts 65-byte and compact 64-byte signatures and longer contract-wallet ones', () => {
    expect(isWellFormedSignature(`0x${'ab'.repeat(65)}`)).toBe(true);
    expect(isWellFormedSignature(`0x${'AB'.repeat(64)}`)).toBe(true);
    expect(isWellFormedSignature(`0x${'12'.repeat(400)}`)).toBe(true);
  });

  it('refuses what a broken wallet might return', () => {
    expect(isWellFormedSignature('')).toBe(false);
    expect(isWellFormedSignature('0x')).toBe(false);
    expect(isWellFormedSignature(`0x${'ab'.repeat(10)}`)).toBe(false);
    expect(isWellFormedSignature(`0x${'a'.repeat(131)}`)).toBe(false);
    expect(isWellFormedSignature(`${'ab'.repeat(65)}`)).toBe(false);
    expect(isWellFormedSignature(`0x${'zz'.repeat(65)}`)).toBe(false);
    expect(isWellFormedSignature(null)).toBe(false);
  });
});
