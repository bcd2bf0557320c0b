import { describe, expect, it } from 'vitest';
import { HDKey } from 'viem/accounts';
import { mnemonicToSeedSync } from '@scure/bip39';
import { hardhatMnemonic } from './demo-accounts.ts';
import { assertXpub, depositAddressAt, devDepositAccountAt, devDepositXpub } from './hd.ts';

describe('deposit addresses from an extended public key', () => {
  it('derives the same addresses as the private keys behind them', () => {
    const xpub = devDepositXpub();
    expect(xpub.startsWith('xpub')).toBe(true);
    for (const index of [0, 1, 2, 1000, 2 ** 31 - 1]) {
      expect(depositAddressAt(xpub, index)).toBe(devDepositAccountAt(index).address);
    }
  });

  it('gives every index its own address', () => {
    const xpub = devDepositXpub();
    const addresses = new Set(Array.from({ length: 200 }, (_, i) => depositAddressAt(xpub, i)));
    expect(addresses.size).toBe(200);
  });

  it('refuses a private extended key and bad indexes', () => {
    const xprv = HDKey.fromMasterSeed(mnemonicToSeedSync(hardhatMnemonic)).derive("m/44'/60'/1'/0").privateExtendedKey;
    expect(() => assertXpub(xprv)).toThrow(/PUBLIC/);
    expect(() => assertXpub('xpub-nonsense')).toThrow();
    expect(() => depositAddressAt(devDepositXpub(), -1)).toThrow(RangeError);
    expect(() => depositAddressAt(devDepositXpub(), 2 ** 31)).toThrow(RangeError);
  });
});
