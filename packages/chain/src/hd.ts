import { secp256k1 } from '@noble/curves/secp256k1';
import { bytesToHex, getAddress, type Address } from 'viem';
import { HDKey, mnemonicToAccount, publicKeyToAddress } from 'viem/accounts';
import { mnemonicToSeedSync } from '@scure/bip39';
import { hardhatMnemonic } from './demo-accounts.ts';

/**
 * Deposit addresses come from an extended PUBLIC key (BIP-32), so the server that watches deposits
 * holds no key that could move them: address i is child i of the xpub. The xpub is the
 * account-level key for m/44'/60'/<account>'/0; the matching private keys stay offline.
 */
export const depositAddressIndexMax = 2 ** 31 - 1;

export function depositAddressAt(xpub: string, index: number): Address {
  if (!Number.isInteger(index) || index < 0 || index > depositAddressIndexMax) throw new RangeError(`deposit address index out of range: ${index}`);
  const child = HDKey.fromExtendedKey(xpub).deriveChild(index);
  if (!child.publicKey) throw new Error('extended key has no public key');
  const uncompressed = secp256k1.ProjectivePoint.fromHex(child.publicKey).toRawBytes(false);
  return getAddress(publicKeyToAddress(bytesToHex(uncompressed)));
}

/** Throws unless the text is an extended public key (never a private one: xprv is refused). */
export function assertXpub(xpub: string): void {
  const key = HDKey.fromExtendedKey(xpub);
  if (key.privateKey) throw new Error('DEPOSIT_XPUB must be an extended PUBLIC key (xpub), not a private one');
}

/**
 * Development and tests only: the local chain's public test mnemonic, account 1 (account 0 holds
 * the funded demo accounts), so deposit addresses are fresh, empty addresses.
 */
export const devDepositAccountIndex = 1;

export function devDepositXpub(): string {
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync(hardhatMnemonic));
  return root.derive(`m/44'/60'/${devDepositAccountIndex}'/0`).publicExtendedKey;
}

/** The account behind a development deposit address (tests use it to prove the derivation). */
export function devDepositAccountAt(index: number) {
  return mnemonicToAccount(hardhatMnemonic, { accountIndex: devDepositAccountIndex, changeIndex: 0, addressIndex: index });
}
