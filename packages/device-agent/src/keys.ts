// A simulated device's identity: an Ed25519 key pair (node:crypto) and a serial derived from the
// public key, kept in a local JSON file so the same devices come back on the next start.
import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { heartbeatMessage } from '@nadi/api/mining';

export interface DeviceKey {
  serial: string;
  /** Raw 32-byte Ed25519 public key, hex. */
  publicKey: string;
  /** Raw 32-byte Ed25519 private key (the seed), hex. Development and demo devices only. */
  privateKey: string;
  /** The activation code the agent was given for it (kept so a demo can show it again), if any. */
  code: string | null;
}

const b64urlToHex = (text: string) => Buffer.from(text, 'base64url').toString('hex');
const hexToB64url = (hex: string) => Buffer.from(hex, 'hex').toString('base64url');

/** A new device: fresh keys, serial `<prefix>-<first 10 hex digits of the public key>`. */
export function newDeviceKey(prefix = 'SIM'): DeviceKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const pub = publicKey.export({ format: 'jwk' });
  const priv = privateKey.export({ format: 'jwk' });
  if (!pub.x || !priv.d) throw new Error('ed25519 key export lacks x or d');
  const publicHex = b64urlToHex(pub.x);
  return { serial: `${prefix}-${publicHex.slice(0, 10).toUpperCase()}`, publicKey: publicHex, privateKey: b64urlToHex(priv.d), code: null };
}

export interface HeartbeatFields {
  serial: string;
  epoch: number;
  counter: number;
  timestamp: number;
}

/** The heartbeat's signature: Ed25519 over the contract's heartbeat message, 128 hex digits. */
export function signHeartbeat(key: Pick<DeviceKey, 'publicKey' | 'privateKey'>, fields: HeartbeatFields): string {
  const privateKey = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', x: hexToB64url(key.publicKey), d: hexToB64url(key.privateKey) }, format: 'jwk' });
  return sign(null, Buffer.from(heartbeatMessage(fields), 'utf8'), privateKey).toString('hex');
}

interface KeysFile {
  version: 1;
  devices: { serial: string; public_key: string; private_key: string; code?: string | null }[];
}

export function readKeys(path: string): DeviceKey[] {
  if (!existsSync(path)) return [];
  const file = JSON.parse(readFileSync(path, 'utf8')) as KeysFile;
  if (file.version !== 1 || !Array.isArray(file.devices)) throw new Error(`${path}: not a device keys file (version 1)`);
  return file.devices.map((d) => ({ serial: d.serial, publicKey: d.public_key, privateKey: d.private_key, code: d.code ?? null }));
}

/** Writes the file whole (a temporary file renamed over it), readable by its owner only. */
export function writeKeys(path: string, keys: DeviceKey[]): void {
  mkdirSync(dirname(path), { recursive: true });
  const file: KeysFile = { version: 1, devices: keys.map((k) => ({ serial: k.serial, public_key: k.publicKey, private_key: k.privateKey, code: k.code })) };
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}
