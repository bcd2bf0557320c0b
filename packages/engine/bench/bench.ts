// npm run bench:engine: this engine against nodejs-order-book on the exchange-core mix, in one
// process, on one seeded command tape. Reports throughput, open-loop latency at 100,000
// commands/s, and checks that both engines produce the same fills and that the engine and the
// reference matcher produce identical event streams.
//
// Options (flag or environment variable):
//   --commands N            BENCH_COMMANDS            tape length (default 3,000,000)
//   --reference-commands N  BENCH_REFERENCE_COMMANDS  engine vs reference matcher (default 1,000,000)
//   --latency-commands N    BENCH_LATENCY_COMMANDS    open-loop latency run, after 200,000
//                                                     unmeasured commands (default 1,000,000)
//   --rounds N              BENCH_ROUNDS              throughput rounds per engine (default 3)
//   --seed N                BENCH_SEED                (default 1)
//   --quick                 300,000 / 100,000 / 100,000 commands, 1 round
//   --smoke                 30,000 / 10,000 / 10,000 commands after 10,000 unmeasured, 1 round: a
//                           check that the bench still runs, in seconds (apps/server/bench/
//                           benches.test.ts runs it in `npm test`); its figures mean nothing
// Different fills or depth, or a figure with no sample, end the run with "FAILED" and exit code 1.
import os from 'node:os';
import v8 from 'node:v8';
import vm from 'node:vm';
import { build } from 'hdr-histogram-js';
import { MatchingEngine } from '../src/engine.ts';
import { EventBuffer } from '../src/events.ts';
import { ReferenceMatcher } from '../src/reference-matcher.ts';
import type { EngineEvent } from '../src/types.ts';
import { benchParams, generateMix, tapeCommand, type MixStats, type Tape } from './exchange-core-mix.ts';
import { NobAdapter, type SimpleTrade } from './nodejs-order-book-adapter.ts';

interface Options {
  commands: number;
  referenceCommands: number;
  latencyCommands: number;
  rounds: number;
  seed: number;
}

function parseOptions(argv: string[]): Options {
  const quick = argv.includes('--quick') || isSmoke;
  const read = (flag: string, env: string, fallback: number): number => {
    const at = argv.indexOf(flag);
    const raw = at >= 0 ? argv[at + 1] : process.env[env];
    const value = raw === undefined ? fallback : Number(raw.replaceAll('_', ''));
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${flag}: not a count: ${raw}`);
    return value;
  };
  const small = (full: number, fewer: number, fewest: number) => (isSmoke ? fewest : quick ? fewer : full);
  const commands = read('--commands', 'BENCH_COMMANDS', small(3_000_000, 300_000, 30_000));
  return {
    commands,
    referenceCommands: Math.min(commands, read('--reference-commands', 'BENCH_REFERENCE_COMMANDS', small(1_000_000, 100_000, 10_000))),
    latencyCommands: Math.min(Math.max(0, commands - LATENCY_WARMUP), read('--latency-commands', 'BENCH_LATENCY_COMMANDS', small(1_000_000, 100_000, 10_000))),
    rounds: Math.max(1, read('--rounds', 'BENCH_ROUNDS', quick ? 1 : 3)),
    seed: read('--seed', 'BENCH_SEED', 1),
  };
}

// A full collection between runs, so one engine's garbage is not collected on the other's time.
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

type Runner = { run(i: number): void };

function engineRunner(tape: Tape): Runner {
  const engine = new MatchingEngine(benchParams());
  // The events are dropped, as nodejs-order-book's responses are; the buffer keeps its storage.
  const out = new EventBuffer();
  return {
    run(i: number): void {
      out.clear();
      engine.execute(tapeCommand(tape, i), out);
    },
  };
}

function nobRunner(tape: Tape): Runner {
  const adapter = new NobAdapter(tape);
  return { run: (i: number) => void adapter.run(i) };
}

interface Timing {
  readonly perSecond: number;
  /** CPU time / wall time: well below 1 means another process took the core. */
  readonly cpuShare: number;
}

function timeRun(runner: Runner, commands: number): Timing {
  collectGarbage();
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < commands; i++) runner.run(i);
  const wallMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  return { perSecond: commands / (wallMs / 1000), cpuShare: (cpu.user + cpu.system) / 1000 / wallMs };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function throughput(tape: Tape, opts: Options): { engine: Timing[]; nob: Timing[] } {
  const engine: Timing[] = [];
  const nob: Timing[] = [];
  for (let round = 0; round < opts.rounds; round++) {
    // Alternate which engine goes first so neither always runs on a warmer or cooler machine.
    const pair = round % 2 === 0 ? ['engine', 'nob'] : ['nob', 'engine'];
    for (const name of pair) {
      if (name === 'engine') engine.push(timeRun(engineRunner(tape), tape.length));
      else nob.push(timeRun(nobRunner(tape), tape.length));
      const last = name === 'engine' ? engine.at(-1) : nob.at(-1);
      log(`  round ${round + 1} ${name.padEnd(6)} ${fmtRate(last?.perSecond ?? 0)}  (cpu share ${(last?.cpuShare ?? 0).toFixed(2)})`);
    }
  }
  return { engine, nob };
}

interface FillCheck {
  readonly commands: number;
  readonly trades: number;
  readonly depthEqual: boolean;
}

/** Runs both engines in lockstep and demands the same trades, command by command, and the same final depth. */
function compareFills(tape: Tape): FillCheck {
  const engine = new MatchingEngine(benchParams());
  const nob = new NobAdapter(tape);
  const events: EngineEvent[] = [];
  let trades = 0;
  for (let i = 0; i < tape.length; i++) {
    events.length = 0;
    engine.execute(tapeCommand(tape, i), events);
    const ours: SimpleTrade[] = [];
    for (const e of events) if (e.type === 'trade') ours.push([e.makerOrderId, e.priceTicks, e.qtyLots]);
    const theirs = nob.trades(i, nob.run(i));
    if (JSON.stringify(ours) !== JSON.stringify(theirs)) {
      throw new Error(
        `fills differ at command ${i}: ${JSON.stringify(tapeCommand(tape, i))}\n` +
          `  engine: ${JSON.stringify(ours)}\n  nodejs-order-book: ${JSON.stringify(theirs)}`,
      );
    }
    trades += ours.length;
  }
  const depth = engine.depth(Infinity);
  const theirs = nob.depth();
  const depthEqual = JSON.stringify([depth.bids, depth.asks]) === JSON.stringify([theirs.bids, theirs.asks]);
  return { commands: tape.length, trades, depthEqual };
}

function compareReference(tape: Tape, commands: number): { events: number; seconds: number; hash: string } {
  const engine = new MatchingEngine(benchParams());
  const reference = new ReferenceMatcher(benchParams());
  const start = performance.now();
  let events = 0;
  for (let i = 0; i < commands; i++) {
    const command = tapeCommand(tape, i);
    const a: EngineEvent[] = [];
    const b: EngineEvent[] = [];
    engine.execute(command, a);
    reference.execute(command, b);
    const ja = JSON.stringify(a);
    if (ja !== JSON.stringify(b)) throw new Error(`event streams differ at command ${i}:\n  ${ja}\n  ${JSON.stringify(b)}`);
    events += a.length;
  }
  const hash = engine.stateHash();
  if (hash !== reference.stateHash()) throw new Error('state hashes differ after the reference run');
  return { events, seconds: (performance.now() - start) / 1000, hash };
}

const INTERVAL_NS = 10_000; // 100,000 commands per second
const isSmoke = process.argv.includes('--smoke');
const LATENCY_WARMUP = isSmoke ? 10_000 : 200_000;

interface Percentiles {
  readonly p50: number;
  readonly p99: number;
  readonly p999: number;
  readonly max: number;
}

interface Latency extends Percentiles {
  /** Execution time of the command alone (no queueing): what the engine costs, not the machine's stalls. */
  readonly service: Percentiles;
  /** CPU time / wall time; busy-waiting keeps it at 1 unless another process takes the core. */
  readonly cpuShare: number;
  readonly gcPauses: number;
  readonly gcMaxMs: number;
  readonly gcTotalMs: number;
}

/** Records garbage collection pauses while `body` runs (the observer delivers them afterwards). */
async function withGcLog<T>(body: () => T): Promise<{ result: T; pauses: number[] }> {
  const pauses: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push(entry.duration);
  });
  observer.observe({ entryTypes: ['gc'] });
  const result = body();
  await new Promise((resolve) => setTimeout(resolve, 100));
  observer.disconnect();
  return { result, pauses };
}

/**
 * Open loop: command i is due at start + i × 10 µs whatever happened before, and its latency is
 * completion − due time. A slow command therefore also delays (and is charged to) the ones
 * queued behind it, which a closed loop would hide (coordinated omission).
 */
async function openLoopLatency(runner: Runner, commands: number): Promise<Latency> {
  const options = { lowestDiscernibleValue: 1, highestTrackableValue: 60e9, numberOfSignificantValueDigits: 3 } as const;
  const latency = build(options);
  const service = build(options);
  collectGarbage();
  // Warm up unmeasured, as fast as possible: the first commands after a full collection pay for
  // the heap growing back (page faults in the young generation), which is not the engine's cost.
  for (let i = 0; i < LATENCY_WARMUP; i++) runner.run(i);
  const cpuStart = process.cpuUsage();
  const { result: wallNs, pauses } = await withGcLog(() => openLoop(runner, commands, latency, service));
  const cpu = process.cpuUsage(cpuStart);
  const result = {
    ...percentiles(latency),
    service: percentiles(service),
    cpuShare: ((cpu.user + cpu.system) * 1000) / wallNs,
    gcPauses: pauses.length,
    gcMaxMs: Math.max(0, ...pauses),
    gcTotalMs: pauses.reduce((a, b) => a + b, 0),
  };
  latency.destroy();
  service.destroy();
  return result;
}

function percentiles(h: { getValueAtPercentile(p: number): number; maxValue: number }): Percentiles {
  return { p50: h.getValueAtPercentile(50), p99: h.getValueAtPercentile(99), p999: h.getValueAtPercentile(99.9), max: h.maxValue };
}

type Recorder = { recordValue(value: number): void };

/** Returns the wall time of the loop in nanoseconds. */
function openLoop(runner: Runner, commands: number, latency: Recorder, service: Recorder): number {
  // Clock reads can allocate (process.hrtime.bigint() always does, performance.now() when its
  // double gets boxed), and a busy-wait reads the clock millions of times a second: garbage
  // collections caused by the harness would be charged to the engine. So the wait reads the
  // clock only every SPIN_READS turns of a counting loop, a few times per command.
  const startMs = performance.now() + 1;
  for (let i = 0; i < commands; i++) {
    const dueMs = startMs + (i * INTERVAL_NS) / 1e6;
    let begin = performance.now();
    let spins = 0;
    while (begin < dueMs) {
      for (let k = 0; k < SPIN_READS; k++) spins++;
      begin = performance.now();
    }
    // Kept small: a module-level number beyond the small-integer range would itself allocate.
    _spins = (_spins + spins) & 0xffff;
    runner.run(LATENCY_WARMUP + i);
    const end = performance.now();
    latency.recordValue(Math.max(1, Math.round((end - dueMs) * 1e6)));
    service.recordValue(Math.max(1, Math.round((end - begin) * 1e6)));
  }
  return (performance.now() - startMs) * 1e6;
}

const SPIN_READS = 64;
// Module-level so the counting loop cannot be optimized away.
let _spins = 0;

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

function fmtRate(perSecond: number): string {
  return `${(perSecond / 1e6).toFixed(3)} M commands/s`;
}

function fmtUs(ns: number): string {
  return `${(ns / 1000).toFixed(1)} µs`;
}

function fmtPercentiles(p: Percentiles): string {
  return `p50 ${fmtUs(p.p50)}, p99 ${fmtUs(p.p99)}, p99.9 ${fmtUs(p.p999)}, max ${fmtUs(p.max)}`;
}

function describeMix(stats: MixStats, commands: number): string {
  const [gtc, ioc, cancel, move] = stats.counts.map((c) => ((100 * c) / commands).toFixed(1));
  return (
    `GTC ${gtc}%, IOC ${ioc}%, cancel ${cancel}%, move ${move}%; ${stats.trades} trades; ` +
    `on average ${stats.avgRestingOrders.toFixed(0)} resting orders over ${stats.avgPriceLevels.toFixed(0)} price levels`
  );
}

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2));
  const cpus = os.cpus();
  log(`Node ${process.version}, ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`);
  log(`options: ${JSON.stringify(opts)}`);
  const { tape, stats } = generateMix(opts.commands, opts.seed);
  log(`tape: ${opts.commands} commands, ${describeMix(stats, opts.commands)}`);

  log('throughput (same tape, same process):');
  const tp = throughput(tape, opts);
  const engineMedian = median(tp.engine.map((t) => t.perSecond));
  const nobMedian = median(tp.nob.map((t) => t.perSecond));
  log(`  median: engine ${fmtRate(engineMedian)}, nodejs-order-book ${fmtRate(nobMedian)}, ratio ${(engineMedian / nobMedian).toFixed(2)}×`);
  // Another process can only slow a round down, so the best round estimates an idle machine.
  const engineBest = Math.max(...tp.engine.map((t) => t.perSecond));
  const nobBest = Math.max(...tp.nob.map((t) => t.perSecond));
  log(`  best:   engine ${fmtRate(engineBest)}, nodejs-order-book ${fmtRate(nobBest)}, ratio ${(engineBest / nobBest).toFixed(2)}×`);

  const fills = compareFills(tape);
  log(`fills: identical trades on all ${fills.commands} commands (${fills.trades} trades); final depth ${fills.depthEqual ? 'identical' : 'DIFFERENT'}`);

  const ref = compareReference(tape, opts.referenceCommands);
  log(
    `reference matcher: identical event streams on ${opts.referenceCommands} commands (${ref.events} events, ` +
      `${ref.seconds.toFixed(1)} s for both), state hash ${ref.hash}`,
  );

  for (const [name, make] of [
    ['engine', engineRunner],
    ['nodejs-order-book', nobRunner],
  ] as const) {
    const l = await openLoopLatency(make(tape), opts.latencyCommands);
    log(
      `latency ${name} at 100,000 commands/s over ${opts.latencyCommands} commands ` +
        `(after ${LATENCY_WARMUP} unmeasured): ${fmtPercentiles(l)} ` +
        `(cpu share ${l.cpuShare.toFixed(2)}; ${l.gcPauses} GC pauses, longest ${l.gcMaxMs.toFixed(1)} ms, ` +
        `total ${l.gcTotalMs.toFixed(0)} ms)`,
    );
    log(`  service time (execution only, no queueing): ${fmtPercentiles(l.service)}`);
  }
  const problems = [
    ...(fills.depthEqual ? [] : ['the final depths differ']),
    ...(fills.trades > 0 ? [] : ['no trades on the tape']),
    ...(opts.latencyCommands > 0 ? [] : ['no latency commands (--commands must exceed the unmeasured warm-up)']),
    ...(engineMedian > 0 && nobMedian > 0 ? [] : ['a throughput of zero']),
  ];
  if (problems.length > 0) {
    console.error(`bench:engine: FAILED: ${problems.join('; ')}`);
    process.exitCode = 1;
  } else log(`bench:engine: OK${isSmoke ? ' (smoke run: sizes too small for figures)' : ''}`);
}

await main();
