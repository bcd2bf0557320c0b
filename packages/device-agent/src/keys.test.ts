import { createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { heartbeatMessage } from '@nadi/api/mining';
import { newDeviceKey, readKeys, signHeartbeat, writeKeys } from './keys.ts';

const dir = mkdtempSync(join(tmpdir(), 'nadi-agent-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function verifies(publicKeyHex: string, message: string, signature: string): boolean {
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKeyHex, 'hex').toString('base64url') }, format: 'jwk' });
  return verify(null, Buffer.from(message), key, Buffer.from(signature, 'hex'));
}

describe('device keys', () => {
  it('makes a serial from the public key and signs the contract heartbeat message', () => {
    const key = newDeviceKey('SIM');
    expect(key.serial).toBe(`SIM-${key.publicKey.slice(0, 10).toUpperCase()}`);
    expect(key.publicKey).toMatch(/^[0-9a-f]{64}$/);
    const fields = { serial: key.serial, epoch: 3, counter: 7, timestamp: 1_800_000_000 };
    const signature = signHeartbeat(key, fields);
    expect(signature).toMatch(/^[0-9a-f]{128}$/);
    expect(verifies(key.publicKey, heartbeatMessage(fields), signature)).toBe(true);
    expect(verifies(key.publicKey, heartbeatMessage({ ...fields, counter: 8 }), signature)).toBe(false);
    expect(verifies(newDeviceKey().publicKey, heartbeatMessage(fields), signature)).toBe(false);
  });

  it('keeps keys and codes in a file only its owner reads', () => {
    const path = join(dir, 'nested', 'devices.json');
    expect(readKeys(path)).toEqual([]);
    const keys = [newDeviceKey(), { ...newDeviceKey(), code: 'ABCD-EFGH-JKLM-NPQR' }];
    writeKeys(path, keys);
    expect(readKeys(path)).toEqual(keys);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});
