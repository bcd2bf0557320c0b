// `npm run device:agent -- --devices 50 --url http://localhost:8080`: plays devices until Ctrl-C.
// While it runs, lines on stdin steer it: `offline SERIAL,SERIAL`, `online SERIAL,…|all`, `status`.
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import type { Hex } from 'viem';
import { createAgent, type DeviceAgent } from './agent.ts';

const usage = `Usage: npm run device:agent -- [options]
  --url URL             the server (default http://localhost:8080)
  --devices N           how many devices to play (default 10)
  --keys FILE           their keys (default .data/devices.json; created and extended as needed)
  --register=false      do not register them through the operator API (they must exist)
  --codes FILE          ask for activation codes for devices that have none, write the CSV to FILE
  --interval SECONDS    between heartbeats (default: the server's heartbeat interval)
  --offline S1,S2       these serials start offline
  --prefix TEXT         serial prefix of new devices (default SIM)
  --model CODE          model of new devices (default NADI-BOX-1)
  --operator-key 0x…    the operator's wallet key (default: local chain account #0, or NADI_OPERATOR_KEY)
  --once                send one heartbeat per online device, print the result and exit
Commands on stdin while running: offline S1,S2 · online S1,S2 · online all · status`;

function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

function positiveInt(text: string | undefined, name: string, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^[1-9][0-9]{0,6}$/.test(text)) fail(`--${name} must be a whole number above 0, not "${text}"`);
  return Number(text);
}

const list = (text: string | undefined) =>
  text
    ? text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

function statusLine(agent: DeviceAgent): string {
  const offline = agent.devices.filter((d) => agent.isOffline(d.serial)).length;
  const refused = Object.entries(agent.stats.refused)
    .map(([reason, n]) => `${reason} ${n}`)
    .join(', ');
  return `${agent.devices.length} devices, ${agent.devices.length - offline} online · heartbeats accepted ${agent.stats.accepted}${refused ? ` · refused: ${refused}` : ''}`;
}

function onCommand(agent: DeviceAgent, line: string): void {
  const [command, arg] = line.trim().split(/\s+/, 2);
  if (command === 'status') return console.info(statusLine(agent));
  if (command !== 'offline' && command !== 'online') return console.info('commands: offline S1,S2 · online S1,S2 · online all · status');
  const serials = arg === 'all' ? agent.devices.map((d) => d.serial) : list(arg);
  const unknown = serials.filter((s) => !agent.devices.some((d) => d.serial === s.toUpperCase()));
  if (unknown.length > 0) return console.info(`unknown serials: ${unknown.join(', ')}`);
  agent.setOffline(serials, command === 'offline');
  console.info(`${command}: ${serials.join(', ')}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: 'http://localhost:8080' },
      devices: { type: 'string' },
      keys: { type: 'string', default: '.data/devices.json' },
      register: { type: 'string', default: 'true' },
      codes: { type: 'string' },
      interval: { type: 'string' },
      offline: { type: 'string' },
      prefix: { type: 'string', default: 'SIM' },
      model: { type: 'string', default: 'NADI-BOX-1' },
      'operator-key': { type: 'string' },
      once: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) return console.info(usage);
  if (values.register !== 'true' && values.register !== 'false') fail('--register must be true or false');
  const operatorKey = values['operator-key'] ?? process.env.NADI_OPERATOR_KEY;
  if (operatorKey !== undefined && !/^0x[0-9a-fA-F]{64}$/.test(operatorKey)) fail('--operator-key must be 0x and 64 hex digits');
  if (!/^[A-Za-z0-9]{1,20}$/.test(values.prefix)) fail('--prefix must be 1 to 20 letters or digits');
  const agent = await createAgent({
    url: values.url,
    devices: positiveInt(values.devices, 'devices', 10),
    keysFile: values.keys,
    serialPrefix: values.prefix.toUpperCase(),
    modelCode: values.model,
    register: values.register === 'true',
    ...(operatorKey ? { operatorPrivateKey: operatorKey as Hex } : {}),
    ...(values.interval ? { intervalSeconds: positiveInt(values.interval, 'interval', 60) } : {}),
    offline: list(values.offline),
    log: (line) => console.warn(line),
  });
  console.info(`device agent: ${agent.devices.length} devices against ${values.url} (keys ${values.keys}), a heartbeat every ${agent.intervalSeconds} s`);
  if (values.codes) {
    const csv = await agent.requestCodes();
    writeFileSync(values.codes, csv, { mode: 0o600 });
    console.info(`activation codes: ${csv.trim().split('\n').length - 1} new, written to ${values.codes} (only their hashes are on the server)`);
  }
  if (values.once) {
    for (const r of await agent.beatAll())
      console.info(
        r.isAccepted ? `${r.serial} ok beats ${r.beats} uptime ${r.uptimeBps} bps${r.isActivated ? ' activated' : ''}` : `${r.serial} refused ${r.reason}`,
      );
    return;
  }
  agent.start();
  const status = setInterval(() => console.info(statusLine(agent)), Math.max(agent.intervalSeconds, 10) * 1000);
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => onCommand(agent, line));
  const stop = () => {
    clearInterval(status);
    lines.close();
    void agent.stop().finally(() => {
      console.info(statusLine(agent));
      process.exit(0);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
