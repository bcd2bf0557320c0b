// The device agent: plays any number of NADI devices against a server. Each device has its own
// Ed25519 key (kept in a JSON file), is registered through the operator API (the agent signs in as
// the operator), and sends a signed heartbeat every heartbeat interval, staggered over the
// interval so 50 devices do not all knock at once. Devices can be taken offline and back.
import type { Hex } from 'viem';
import type { DeviceClockData } from '@nadi/api/mining';
import { hardhatDevPrivateKeys } from '@nadi/chain/demo-accounts';
import { ApiRefusal, NadiClient, type FetchLike } from './client.ts';
import { newDeviceKey, readKeys, signHeartbeat, writeKeys, type DeviceKey } from './keys.ts';

export interface AgentOptions {
  /** The server, e.g. http://localhost:8080. */
  url: string;
  /** How many devices to play; the keys file gains new ones when it holds fewer. */
  devices: number;
  /** Where the keys live; null keeps them in memory only (tests). */
  keysFile: string | null;
  /** Serial prefix of new devices (default SIM). */
  serialPrefix?: string;
  /** The model new devices are registered as (default NADI-BOX-1, the development seed's). */
  modelCode?: string;
  /** Register the devices through the operator API (default true); false expects them registered. */
  register?: boolean;
  /** The operator's wallet key (default: the local chain's account #0, the development operator). */
  operatorPrivateKey?: Hex;
  /** Seconds between a device's heartbeats (default: the server's heartbeat interval). */
  intervalSeconds?: number;
  /** Serials that start offline. */
  offline?: string[];
  fetch?: FetchLike;
  /** The devices' clock (tests pass the server's TestClock). */
  now?: () => Date;
  log?: (line: string) => void;
}

export interface BeatResult {
  serial: string;
  isAccepted: boolean;
  /** The refusal's reason when not accepted. */
  reason?: string;
  beats?: number;
  uptimeBps?: number;
  isActivated?: boolean;
}

export interface AgentStats {
  accepted: number;
  refused: Record<string, number>;
}

const modelCodeDefault = 'NADI-BOX-1';
const registerChunk = 1000;
/** Heartbeats in flight at once during beatAll. */
const beatConcurrency = 8;

export class DeviceAgent {
  readonly client: NadiClient;
  private readonly options: AgentOptions;
  private readonly now: () => Date;
  private readonly log: (line: string) => void;
  private readonly keys: DeviceKey[];
  /** Devices of the keys file beyond `options.devices`: not played, kept in the file. */
  private readonly spare: DeviceKey[];
  private readonly counters = new Map<string, number>();
  private readonly offline = new Set<string>();
  /** Scheduled beats under way, by serial (stop() waits for them). */
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private clock: DeviceClockData | null = null;
  private operatorClient: NadiClient | null = null;
  readonly stats: AgentStats = { accepted: 0, refused: {} };

  constructor(options: AgentOptions, keys: DeviceKey[], spare: DeviceKey[] = []) {
    this.options = options;
    this.client = new NadiClient(options.url, options.fetch);
    this.now = options.now ?? (() => new Date());
    this.log = options.log ?? (() => {});
    this.keys = keys;
    this.spare = spare;
    for (const serial of options.offline ?? []) this.offline.add(serial.toUpperCase());
  }

  get devices(): readonly DeviceKey[] {
    return this.keys;
  }

  get intervalSeconds(): number {
    return this.options.intervalSeconds ?? this.clock?.heartbeat_seconds ?? 60;
  }

  /** Reads the server's epoch numbering and heartbeat interval. */
  async syncClock(): Promise<DeviceClockData> {
    this.clock = await this.client.get<DeviceClockData>('/api/v1/device/clock');
    return this.clock;
  }

  /** The epoch a Unix time falls in, by the server's genesis and epoch length. */
  epochAt(unixSeconds: number): number {
    if (!this.clock) throw new Error('the agent has not read the server clock yet (syncClock)');
    return Math.max(0, Math.floor((unixSeconds - this.clock.genesis) / this.clock.epoch_seconds));
  }

  /** Signs in as the operator once; later calls reuse the session. */
  async operator(): Promise<NadiClient> {
    if (this.operatorClient) return this.operatorClient;
    const client = new NadiClient(this.options.url, this.options.fetch);
    await client.signIn(this.options.operatorPrivateKey ?? (hardhatDevPrivateKeys[0] as Hex));
    this.operatorClient = client;
    return client;
  }

  /** Registers every device (a device registered before with the same key is skipped by the server). Answers how many were new. */
  async register(): Promise<number> {
    const operator = await this.operator();
    let registered = 0;
    for (let i = 0; i < this.keys.length; i += registerChunk) {
      const chunk = this.keys.slice(i, i + registerChunk);
      const answer = await operator.post<{ registered: number }>('/api/v1/operator/device/register', {
        model_code: this.options.modelCode ?? modelCodeDefault,
        devices: chunk.map((k) => ({ serial: k.serial, public_key: k.publicKey })),
      });
      registered += answer.registered;
    }
    return registered;
  }

  /**
   * Asks the operator API for one code per device (default: every device the agent holds no code
   * for) and keeps the codes in the keys file. Answers the server's CSV ("serial,code" lines).
   */
  async requestCodes(serials?: string[]): Promise<string> {
    const wanted = serials ?? this.keys.filter((k) => k.code === null).map((k) => k.serial);
    if (wanted.length === 0) return 'serial,code\n';
    const operator = await this.operator();
    const { csv } = await operator.post<{ csv: string }>('/api/v1/operator/activation/batch', { serials: wanted });
    for (const line of csv.trim().split('\n').slice(1)) {
      const [serial, code] = line.split(',');
      const key = this.keys.find((k) => k.serial === serial);
      if (key && code) key.code = code;
    }
    this.save();
    return csv;
  }

  /** Drops the codes kept for these devices (codes of another database, e.g. after a reset). */
  forgetCodes(serials: string[]): void {
    for (const key of this.keys) if (serials.includes(key.serial)) key.code = null;
    this.save();
  }

  setOffline(serials: string[], isOffline = true): void {
    for (const serial of serials) {
      if (isOffline) this.offline.add(serial.toUpperCase());
      else this.offline.delete(serial.toUpperCase());
    }
  }

  isOffline(serial: string): boolean {
    return this.offline.has(serial.toUpperCase());
  }

  /** One signed heartbeat of one device. A stale refusal re-reads the server clock for the next beat. */
  async beat(key: DeviceKey): Promise<BeatResult> {
    if (!this.clock) await this.syncClock();
    const nowMs = this.now().getTime();
    const timestamp = Math.floor(nowMs / 1000);
    // Above the last one and growing with time: survives a restart without storing counters.
    const counter = Math.max((this.counters.get(key.serial) ?? 0) + 1, nowMs);
    this.counters.set(key.serial, counter);
    const fields = { serial: key.serial, epoch: this.epochAt(timestamp), counter, timestamp };
    try {
      const data = await this.client.post<{ beats: number; uptime_bps: number; activated: boolean }>('/api/v1/device/heartbeat', {
        ...fields,
        signature: signHeartbeat(key, fields),
      });
      this.stats.accepted += 1;
      return { serial: key.serial, isAccepted: true, beats: data.beats, uptimeBps: data.uptime_bps, isActivated: data.activated };
    } catch (error) {
      if (!(error instanceof ApiRefusal)) throw error;
      this.stats.refused[error.reason] = (this.stats.refused[error.reason] ?? 0) + 1;
      if (error.reason === 'HEARTBEAT_STALE') await this.syncClock().catch(() => {});
      return { serial: key.serial, isAccepted: false, reason: error.reason };
    }
  }

  /** One heartbeat from every online device, a few at a time. */
  async beatAll(): Promise<BeatResult[]> {
    const online = this.keys.filter((k) => !this.isOffline(k.serial));
    const results: BeatResult[] = [];
    for (let i = 0; i < online.length; i += beatConcurrency) {
      results.push(...(await Promise.all(online.slice(i, i + beatConcurrency).map((k) => this.beat(k)))));
    }
    return results;
  }

  /** Every device beats every interval, the devices spread evenly over it. */
  start(): void {
    if (this.timers.size > 0) return;
    const intervalMs = this.intervalSeconds * 1000;
    this.keys.forEach((key, index) => {
      const first = setTimeout(
        () => {
          this.timers.delete(first);
          const tick = () => this.scheduledBeat(key);
          tick();
          const every = setInterval(tick, intervalMs);
          this.timers.add(every);
        },
        Math.floor((index * intervalMs) / this.keys.length),
      );
      this.timers.add(first);
    });
  }

  private scheduledBeat(key: DeviceKey): void {
    if (this.isOffline(key.serial) || this.inFlight.has(key.serial)) return;
    const beat = this.beat(key).then(
      (result) => {
        if (!result.isAccepted) this.log(`${key.serial}: heartbeat refused (${result.reason})`);
      },
      (error: unknown) => this.log(`${key.serial}: heartbeat failed (${error instanceof Error ? error.message : String(error)})`),
    );
    this.inFlight.set(
      key.serial,
      beat.finally(() => this.inFlight.delete(key.serial)),
    );
  }

  /** Stops the timers and waits for the heartbeats under way. */
  async stop(): Promise<void> {
    for (const timer of this.timers) {
      clearTimeout(timer);
      clearInterval(timer);
    }
    this.timers.clear();
    await Promise.all(this.inFlight.values());
  }

  /** The keys and codes to the keys file (nothing without one). */
  save(): void {
    if (this.options.keysFile) writeKeys(this.options.keysFile, [...this.keys, ...this.spare]);
  }
}

/**
 * Loads (or creates) the keys of `options.devices` devices, reads the server clock and, unless
 * `register` is false, registers them. The agent does not beat until `start()` (or `beatAll()`).
 */
export async function createAgent(options: AgentOptions): Promise<DeviceAgent> {
  if (!Number.isInteger(options.devices) || options.devices < 1) throw new RangeError(`devices must be a whole number >= 1, not ${options.devices}`);
  const stored = options.keysFile ? readKeys(options.keysFile) : [];
  const keys = stored.slice(0, options.devices);
  while (keys.length < options.devices) keys.push(newDeviceKey(options.serialPrefix ?? 'SIM'));
  const agent = new DeviceAgent(options, keys, stored.slice(options.devices));
  if (keys.length > stored.length) agent.save();
  await agent.syncClock();
  if (options.register ?? true) await agent.register();
  return agent;
}
