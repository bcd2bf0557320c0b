// The `npm start` demo devices (development only): three devices of the seeded model, two of them
// activated for demo account #1 (the local chain's account #1, the first account of the demo
// wallet), the third left with an unused code the start banner prints, so a newcomer can try an
// activation. Safe to run on every start: the keys and codes stay in a file beside the data, the
// server skips devices it knows, and a code used before is simply used.
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { hardhatDevPrivateKeys } from '@nadi/chain/demo-accounts';
import { createAgent, type DeviceAgent } from './agent.ts';
import { ApiRefusal, NadiClient, type FetchLike } from './client.ts';

export interface DemoDevicesOptions {
  url: string;
  keysFile: string;
  /** Registers demo account #1 when it signs in for the first time. */
  inviteCode: string;
  fetch?: FetchLike;
  now?: () => Date;
  log?: (line: string) => void;
}

export interface DemoDevices {
  agent: DeviceAgent;
  /** Demo account #1, the owner of the activated devices. */
  owner: Address;
  activated: string[];
  /** The device left for a newcomer, with its code; null once someone has activated it. */
  spare: { serial: string; code: string } | null;
}

const demoDeviceCount = 3;
const ownedCount = 2;
const ownerKey = hardhatDevPrivateKeys[1] as Hex;

export async function prepareDemoDevices(options: DemoDevicesOptions): Promise<DemoDevices> {
  const agent = await createAgent({
    url: options.url,
    devices: demoDeviceCount,
    keysFile: options.keysFile,
    serialPrefix: 'DEMO',
    register: false,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  // All new to this server while the file holds codes: the database was reset, those codes are gone.
  if ((await agent.register()) === agent.devices.length) agent.forgetCodes(agent.devices.map((d) => d.serial));
  await agent.requestCodes();
  const owner = new NadiClient(options.url, options.fetch);
  await owner.signIn(ownerKey, options.inviteCode);
  const owned = agent.devices.slice(0, ownedCount);
  for (const device of owned) {
    try {
      await owner.post('/api/v1/mining/activate', { code: device.code });
    } catch (error) {
      // Activated on an earlier start.
      if (!(error instanceof ApiRefusal && error.reason === 'ACTIVATION_CODE_USED')) throw error;
    }
  }
  // A first round of heartbeats: the owned devices' activations succeed, and the answer tells
  // whether someone has activated the spare device since.
  const results = await agent.beatAll();
  const spareKey = agent.devices[ownedCount];
  const isSpareFree = spareKey?.code && results.some((r) => r.serial === spareKey.serial && r.isAccepted && !r.isActivated);
  return {
    agent,
    owner: privateKeyToAccount(ownerKey).address,
    activated: owned.map((d) => d.serial),
    spare: isSpareFree && spareKey.code ? { serial: spareKey.serial, code: spareKey.code } : null,
  };
}
