// Epoch settlement (docs/settlement.md; docs/economy.md, "Settlement"; docs/nodes-and-savings.md,
// "Settlement"; docs/team.md, "Rewards"), in two steps that never hold a user's accounts for long:
// 1. The computation, one transaction that locks no user's accounts: the TypeScript side computes what
//    is in force at the epoch (parameters, emission, the reference price at its end, which vesting
//    tranches end) and calls `mining_settle_epoch`, `pledge_settle_epoch`, `node_settle_epoch` and
//    `team_settle_epoch` (each in the sql/ folder of its module), which stage every user's figures and
//    move what the epoch pays from the pools to the settlement accounts; `settlement_plan` cuts the
//    users into chunks by id and `team_settle_pay` takes the team rewards from the referral pool last.
// 2. The chunks, each its own short transaction (`settlement_post_chunk`): a user's whole epoch (all
//    four parts) appears at once; a chunk posts once whoever runs it, and a run killed at any point
//    resumes from its durable cursor (the chunks not posted). `settlement_finish` marks the epoch
//    settled when the last chunk has posted. Epochs settle strictly in order from 0.
import { sql, type SQL } from 'drizzle-orm';
import { emissionOf, miningDefaults, uptimeCounts, type MiningParams } from '@nadi/economy/economy';
import { levelRules, type TeamParams } from '@nadi/economy/team';
import type { AppSettings } from '../../../config.ts';
import type { Db, Tx } from '../../../db/client.ts';
import { pgCode } from '../../../db/pg-code.ts';
import { rowsOf } from '../../../db/rows.ts';
import { epochClock, miningGenesis } from '../clock.ts';
import { paramsAt } from '../params.ts';
import { AppError } from '../../../lib/app-error.ts';
import { referencePrice } from '../reference-price.ts';

export interface SettleDeps {
  db: Db | Tx;
  settings: Pick<AppSettings, 'epochSeconds' | 'heartbeatSeconds'>;
  now: () => Date;
  /** Users per chunk (settlementChunkUsers when not given). */
  chunkUsers?: number;
  /** Called after each chunk posts (progress metrics and logs; tests stop a run here). */
  onChunk?: (posted: PostedChunk) => void | Promise<void>;
  /** Called when a chunk met a deadlock or serialization failure and runs again (metrics; tests count them). */
  onRetry?: (code: string) => void;
}

/** Users per chunk: a chunk of this many users holds their accounts for a few tens of milliseconds (docs/settlement.md, docs/benchmarks.md). */
export const settlementChunkUsers = 200;

/** What one chunk posted. */
export interface PostedChunk {
  epoch: number;
  chunk: number;
  /** Chunks of the run, and how many have posted (this one included). */
  chunks: number;
  done: number;
  journal: number;
  durationMs: number;
  /** Where the chunk's time went: lock, legs, post, then each part's rows. */
  phasesMs: Record<string, number>;
}

/** What the node part of a settlement did (its node_epochs row and the rows it wrote). */
export interface NodeSettlement {
  flowId: number | null;
  /** What the fees accounts received in the epoch. */
  feesNadi: bigint;
  feesUsdt: bigint;
  /** The node mining income owed, what the node pool could pay of it, and what it paid. */
  wanted: bigint;
  payable: bigint;
  bonus: bigint;
  dividendNadi: bigint;
  dividendUsdt: bigint;
  weightTotal: bigint;
  holders: number;
  earnings: number;
  journal: number;
  durationMs: number;
}

/** What the savings part of a settlement did (its pledge_epochs row and the rows it wrote). */
export interface PledgeSettlement {
  flowId: number | null;
  /** The interest owed, what the savings pool could pay of it, and what it paid. */
  wanted: bigint;
  payable: bigint;
  paid: bigint;
  positions: number;
  /** Principal released to the fund accounts, and the positions released. */
  released: bigint;
  releases: number;
  journal: number;
  durationMs: number;
}

/** What the team part of a settlement did (its team_epochs row and the rows it wrote). */
export interface TeamSettlement {
  flowId: number | null;
  /** The team rewards owed, what the referral pool could pay of them, and what it paid… */
  wanted: bigint;
  payable: bigint;
  paid: bigint;
  /** …of which each kind. */
  shareIncome: bigint;
  communityPowerIncome: bigint;
  powerLevelIncome: bigint;
  /** team_rewards lines written (each wants more than zero). */
  lines: number;
  /** Users with mining income in the epoch, and users above V0 at its end. */
  earners: number;
  leveled: number;
  journal: number;
  durationMs: number;
  /** Where the time went: levels at the end, the earners' ancestor paths, the lines, the pool and ledger, the rows. */
  phasesMs: Record<string, number>;
}

/** What one settlement did (the mining_epochs row and the rows it wrote), with its node, savings and team parts. */
export interface EpochSettlement {
  epoch: number;
  flowId: number | null;
  emission: bigint;
  payable: bigint;
  paid: bigint;
  locked: bigint;
  released: bigint;
  reduction: bigint;
  networkPower: bigint;
  users: number;
  results: number;
  journal: number;
  minerChanges: number;
  durationMs: number;
  /** The chunks the users were posted in, and the time of the computation and of the whole run. */
  chunks: number;
  computeMs: number;
  totalMs: number;
  node: NodeSettlement;
  pledge: PledgeSettlement;
  team: TeamSettlement;
}

export type SettleOutcome = { status: 'settled'; settlement: EpochSettlement } | { status: 'already' };

export type SettlementErrorReason = 'not_ended' | 'out_of_order' | 'invalid_input' | 'no_price' | 'overpaid';

/** A settlement that cannot run (the job logs it and tries again on its next round). */
export class SettlementError extends Error {
  override name = 'SettlementError';
  readonly reason: SettlementErrorReason;
  constructor(reason: SettlementErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

const sqlErrors: Record<string, SettlementErrorReason> = { NS002: 'out_of_order', NS003: 'invalid_input', NS004: 'overpaid' };

/** The fewest heartbeats that make a device count in an epoch (uptimeCounts). */
export function uptimeBeatsNeeded(params: Pick<MiningParams, 'epochSeconds' | 'heartbeatSeconds' | 'uptimeMinBps'>): number {
  const need = params.uptimeMinBps * BigInt(params.epochSeconds);
  const perBeat = BigInt(params.heartbeatSeconds) * 10_000n;
  const beats = Number((need + perBeat - 1n) / perBeat);
  if (!uptimeCounts(beats, params) || (beats > 0 && uptimeCounts(beats - 1, params))) throw new Error('uptime threshold does not agree with uptimeCounts');
  return beats;
}

/**
 * The earlier epochs whose vesting tranche releases its last slice at `epoch` (n + V(n) = epoch),
 * with the V each was created under: V follows the operator's `vestingEpochs` rows like paramsAt.
 */
export async function endingTranches(db: Db | Tx, epoch: number): Promise<{ epochs: number[]; vesting: number[] }> {
  const rows = rowsOf<{ effective_epoch: number; value: string }>(
    await db.execute(sql`select effective_epoch, value from economy_params where name = 'vestingEpochs' order by effective_epoch`),
  ).map((r) => ({ from: Number(r.effective_epoch), v: Number(r.value) }));
  const vestingAt = (n: number) => rows.filter((r) => r.from <= n).at(-1)?.v ?? miningDefaults.vestingEpochs;
  const longest = Math.max(miningDefaults.vestingEpochs, ...rows.map((r) => r.v));
  const ending = { epochs: [] as number[], vesting: [] as number[] };
  for (let n = Math.max(0, epoch - longest); n < epoch; n += 1) {
    const v = vestingAt(n);
    if (n + v === epoch) {
      ending.epochs.push(n);
      ending.vesting.push(v);
    }
  }
  return ending;
}

/** The last settled epoch, or null before the first settlement. */
export async function lastSettledEpoch(db: Db | Tx): Promise<number | null> {
  const row = rowsOf<{ last: number | null }>(await db.execute(sql`select max(epoch) as last from mining_epochs where settled_at is not null`))[0];
  return row?.last === null || row?.last === undefined ? null : Number(row.last);
}

/**
 * Settles one ended epoch: computes it (unless a run of it is already posting: a crash or another
 * instance left it there), posts every chunk not posted yet, then marks it settled. `already` when it
 * was settled before (by this or another instance).
 */
export async function settleEpoch(deps: SettleDeps, epoch: number): Promise<SettleOutcome> {
  if (!Number.isSafeInteger(epoch) || epoch < 0 || epoch > 2 ** 31 - 2) throw new SettlementError('invalid_input', `epoch ${epoch} is not a whole number >= 0`);
  const started = Date.now();
  try {
    let run = await runOf(deps.db, epoch);
    if (!run) {
      const computed = await computeEpoch(deps, epoch).catch(async (error: unknown) => {
        if (pgCode(error) === 'NS001') return null;
        throw error;
      });
      run = await runOf(deps.db, epoch);
      if (!computed && !run) return { status: 'already' };
    }
    if (!run || run.status === 'settled') return { status: 'already' };
    await postChunks(deps, epoch);
    const finished = await deps.db.transaction(async (tx) =>
      rowsOf<{ done: string | null }>(await tx.execute(sql`select settlement_finish(${epoch}::int, ${deps.now()}::timestamptz)::text as done`)),
    );
    if (!finished[0]?.done) return { status: 'already' };
    const settled = await runOf(deps.db, epoch);
    return { status: 'settled', settlement: settlementFromRun(settled ?? run, Date.now() - started) };
  } catch (error) {
    const code = pgCode(error) ?? '';
    const reason = sqlErrors[code];
    if (reason) throw new SettlementError(reason, `epoch ${epoch}: ${errorText(error)}`, { cause: error });
    throw error;
  }
}

interface RunRow {
  status: 'posting' | 'settled';
  chunks: number;
  summary: RunSummary;
  computeMs: number;
}

interface RunSummary {
  epoch: number;
  mining: Record<string, unknown>;
  pledge: Record<string, unknown>;
  node: Record<string, unknown>;
  team: Record<string, unknown>;
}

async function runOf(db: Db | Tx, epoch: number): Promise<RunRow | null> {
  const row = rowsOf<{ status: RunRow['status']; chunks: number; summary: string; compute_ms: number }>(
    await db.execute(sql`select status, chunks, summary::text as summary, compute_ms from settlement_runs where epoch = ${epoch}`),
  )[0];
  return row ? { status: row.status, chunks: Number(row.chunks), summary: JSON.parse(row.summary) as RunSummary, computeMs: Number(row.compute_ms) } : null;
}

/**
 * The computation: one transaction that stages every part's figures, moves what the epoch pays from
 * the pools to the settlement accounts, cuts the chunks and records the run. Locks no user's accounts.
 */
async function computeEpoch(deps: SettleDeps, epoch: number): Promise<RunSummary> {
  const started = Date.now();
  const now = deps.now();
  const genesis = await miningGenesis(deps.db, now, deps.settings.epochSeconds);
  const params = await paramsAt(deps.db, deps.settings, epoch);
  const clock = epochClock(genesis, params);
  const [startsAt, endsAt] = [clock.startOf(epoch), clock.endOf(epoch)];
  if (now < endsAt) throw new SettlementError('not_ended', `mining epoch ${epoch} ends at ${endsAt.toISOString()}`);
  // The 15-minute time-weighted market average at the epoch's end, else the configured price.
  const price = await referencePrice(deps.db, endsAt, params).catch((error: unknown) => {
    if (error instanceof AppError && error.reason === 'PRICE_UNAVAILABLE')
      throw new SettlementError('no_price', `no reference price at the end of mining epoch ${epoch}`);
    throw error;
  });
  const ending = await endingTranches(deps.db, epoch);
  const chunkUsers = deps.chunkUsers ?? settlementChunkUsers;
  return deps.db.transaction(async (tx) => {
    const mining = await summaryOf(
      tx,
      sql`select mining_settle_epoch(${epoch}::int, ${startsAt}::timestamptz, ${endsAt}::timestamptz, ${emissionOf(epoch, params).toString()}::numeric,
        ${Number(params.immediateBps)}::int, ${params.vestingEpochs}::int, ${uptimeBeatsNeeded(params)}::int, ${price.price.toString()}::numeric,
        ${`{${ending.epochs.join(',')}}`}::int[], ${`{${ending.vesting.join(',')}}`}::int[], ${now}::timestamptz)::text as summary`,
    );
    const pledge = await summaryOf(
      tx,
      sql`select pledge_settle_epoch(${epoch}::int, ${startsAt}::timestamptz, ${endsAt}::timestamptz, ${now}::timestamptz)::text as summary`,
    );
    const node = await summaryOf(
      tx,
      sql`select node_settle_epoch(${epoch}::int, ${startsAt}::timestamptz, ${endsAt}::timestamptz, ${Number(params.nodeDividendBps)}::int,
        ${now}::timestamptz)::text as summary`,
    );
    const teamLines = await teamLinesOf(tx, { epoch, startsAt, endsAt, params, now });
    const plan = await summaryOf(tx, sql`select settlement_plan(${epoch}::int, ${chunkUsers}::int)::text as summary`);
    // Last: the referral pool is locked from here to the commit (device purchases take from it too).
    const pay = await summaryOf(tx, sql`select team_settle_pay(${epoch}::int, ${now}::timestamptz)::text as summary`);
    const summary: RunSummary = { epoch, mining, pledge, node, team: { ...teamLines, ...pay } };
    await tx.execute(sql`
      insert into settlement_runs (epoch, status, chunks, users, summary, computed_at, compute_ms)
      values (${epoch}, 'posting', ${Number(plan.chunks)}, ${Number(plan.users)}, ${JSON.stringify(summary)}::jsonb, ${now}::timestamptz,
              ${Date.now() - started})`);
    return summary;
  });
}

/** Deadlocks and serialization failures: a chunk that met one runs again (it changed nothing). */
const retryable = new Set(['40P01', '40001']);

/** Posts every chunk of the epoch's run not posted yet, each in its own transaction. */
async function postChunks(deps: SettleDeps, epoch: number): Promise<void> {
  const pending = rowsOf<{ chunk: number }>(
    await deps.db.execute(sql`select chunk from settlement_chunks where epoch = ${epoch} and posted_at is null order by chunk`),
  ).map((r) => Number(r.chunk));
  const total = Number(rowsOf<{ n: number }>(await deps.db.execute(sql`select count(*)::int as n from settlement_chunks where epoch = ${epoch}`))[0]?.n ?? 0);
  let done = total - pending.length;
  for (const chunk of pending) {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const posted = await deps.db.transaction(async (tx) =>
          rowsOf<{ posted: string | null }>(
            await tx.execute(sql`select settlement_post_chunk(${epoch}::int, ${chunk}::int, ${deps.now()}::timestamptz)::text as posted`),
          ),
        );
        const figures = posted[0]?.posted
          ? (JSON.parse(posted[0].posted) as { journal: number; duration_ms: number; phases_ms: Record<string, number> | null })
          : null;
        // NULL: another instance posts (or posted) it.
        if (figures) {
          done += 1;
          await deps.onChunk?.({
            ...{ epoch, chunk, chunks: total, done, journal: Number(figures.journal), durationMs: Number(figures.duration_ms) },
            phasesMs: Object.fromEntries(Object.entries(figures.phases_ms ?? {}).map(([k, v]) => [k, Number(v)])),
          });
        }
        break;
      } catch (error) {
        const code = pgCode(error) ?? '';
        if (attempt >= 5 || !retryable.has(code)) throw error;
        deps.onRetry?.(code);
      }
    }
  }
}

/** The settlement's figures, from the summaries its run recorded. */
function settlementFromRun(run: RunRow, totalMs: number): EpochSettlement {
  return {
    ...settlementOf(run.summary.mining),
    chunks: run.chunks,
    computeMs: run.computeMs,
    totalMs,
    node: nodeSettlementOf(run.summary.node),
    pledge: pledgeSettlementOf(run.summary.pledge),
    team: teamSettlementOf(run.summary.team),
  };
}

export interface TeamEpochInput {
  epoch: number;
  startsAt: Date;
  endsAt: Date;
  params: TeamParams;
  now: Date;
}

/** The team part of an epoch's computation (team_settle_epoch: the lines, staged), in the caller's transaction. */
async function teamLinesOf(tx: Tx, t: TeamEpochInput): Promise<Record<string, unknown>> {
  const rules = levelRules(t.params);
  const list = (values: (bigint | number)[]) => `{${values.join(',')}}`;
  return summaryOf(
    tx,
    sql`select team_settle_epoch(${t.epoch}::int, ${t.startsAt}::timestamptz, ${t.endsAt}::timestamptz,
      ${Number(t.params.teamShareLevel1Bps)}::int, ${Number(t.params.teamShareLevel2Bps)}::int,
      ${list(rules.map((r) => r.usdt))}::numeric[], ${list(rules.map((r) => r.directs))}::int[], ${list(rules.map((r) => r.rateBps))}::int[],
      ${Number(t.params.teamPowerLevelBps)}::int, ${t.params.teamPowerLevelMin}::int, ${t.now}::timestamptz)::text as summary`,
  );
}

/**
 * The team part of an epoch's settlement alone, in the caller's transaction, on mining figures the
 * caller staged (mining_settle_stage with nothing immediate or locked) for an epoch whose mining_epochs
 * row it wrote: the lines, what the referral pool pays, one chunk of every recipient, the team_epochs
 * row. Tests of the team rules call it; settleEpoch runs the same functions among the other parts.
 */
export async function settleTeamEpoch(tx: Tx, t: TeamEpochInput): Promise<TeamSettlement> {
  const lines = await teamLinesOf(tx, t);
  const pay = await summaryOf(tx, sql`select team_settle_pay(${t.epoch}::int, ${t.now}::timestamptz)::text as summary`);
  const summary = { ...lines, ...pay };
  await tx.execute(sql`insert into settlement_chunks (epoch, chunk, lo_user, hi_user, users, nadi, usdt) values (${t.epoch}, 0, 0, ${2 ** 31 - 1}, 0, 0, 0)`);
  await tx.execute(sql`select settlement_post_chunk(${t.epoch}::int, 0, ${t.now}::timestamptz)`);
  await tx.execute(sql`select team_settle_finish(${t.epoch}::int, ${JSON.stringify(summary)}::jsonb, ${t.now}::timestamptz)`);
  return teamSettlementOf(summary);
}

/** Runs one of the settlement functions and answers its jsonb summary. */
async function summaryOf(tx: Tx, query: SQL): Promise<Record<string, unknown>> {
  const rows = rowsOf<{ summary: string }>(await tx.execute(query));
  return JSON.parse(rows[0]?.summary ?? '{}') as Record<string, unknown>;
}

/** Seconds since the end of the oldest ended epoch not settled yet; 0 when every ended epoch is settled. */
export async function settlementLagSeconds(deps: Pick<SettleDeps, 'db' | 'settings' | 'now'>): Promise<number> {
  const now = deps.now();
  const genesis = await miningGenesis(deps.db, now, deps.settings.epochSeconds);
  const clock = epochClock(genesis, deps.settings);
  const oldestEnd = clock.endOf(((await lastSettledEpoch(deps.db)) ?? -1) + 1);
  return oldestEnd < now ? (now.getTime() - oldestEnd.getTime()) / 1000 : 0;
}

/** Settles every ended epoch not settled yet, in order (catch-up after downtime); answers what it settled. */
export async function settleDueEpochs(deps: SettleDeps): Promise<EpochSettlement[]> {
  const now = deps.now();
  const genesis = await miningGenesis(deps.db, now, deps.settings.epochSeconds);
  const current = epochClock(genesis, deps.settings).epochOf(now);
  const settled: EpochSettlement[] = [];
  for (let epoch = ((await lastSettledEpoch(deps.db)) ?? -1) + 1; epoch < current; epoch += 1) {
    const outcome = await settleEpoch(deps, epoch);
    if (outcome.status === 'settled') settled.push(outcome.settlement);
  }
  return settled;
}

/** Reads a summary's figures: amounts as bigint (they come as text), counts as numbers. */
function readerOf(s: Record<string, unknown>) {
  return {
    big: (key: string) => BigInt(String(s[key])),
    num: (key: string) => Number(s[key]),
    flowId: () => (s.flow_id === null || s.flow_id === undefined ? null : Number(s.flow_id)),
  };
}

function settlementOf(s: Record<string, unknown>): Omit<EpochSettlement, 'node' | 'pledge' | 'team' | 'chunks' | 'computeMs' | 'totalMs'> {
  const { big, num, flowId } = readerOf(s);
  return {
    epoch: num('epoch'),
    flowId: flowId(),
    emission: big('emission'),
    payable: big('payable'),
    paid: big('paid'),
    locked: big('locked'),
    released: big('released'),
    reduction: big('reduction'),
    networkPower: big('network_power'),
    users: num('users'),
    results: num('results'),
    journal: num('journal'),
    minerChanges: num('miner_changes'),
    durationMs: num('duration_ms'),
  };
}

function nodeSettlementOf(s: Record<string, unknown>): NodeSettlement {
  const { big, num, flowId } = readerOf(s);
  return {
    flowId: flowId(),
    feesNadi: big('fees_nadi'),
    feesUsdt: big('fees_usdt'),
    wanted: big('wanted'),
    payable: big('payable'),
    bonus: big('bonus'),
    dividendNadi: big('dividend_nadi'),
    dividendUsdt: big('dividend_usdt'),
    weightTotal: big('weight_total'),
    holders: num('holders'),
    earnings: num('earnings'),
    journal: num('journal'),
    durationMs: num('duration_ms'),
  };
}

function pledgeSettlementOf(s: Record<string, unknown>): PledgeSettlement {
  const { big, num, flowId } = readerOf(s);
  return {
    flowId: flowId(),
    wanted: big('wanted'),
    payable: big('payable'),
    paid: big('paid'),
    positions: num('positions'),
    released: big('released'),
    releases: num('releases'),
    journal: num('journal'),
    durationMs: num('duration_ms'),
  };
}

function teamSettlementOf(s: Record<string, unknown>): TeamSettlement {
  const { big, num, flowId } = readerOf(s);
  return {
    flowId: flowId(),
    wanted: big('wanted'),
    payable: big('payable'),
    paid: big('paid'),
    shareIncome: big('share_income'),
    communityPowerIncome: big('community_power_income'),
    powerLevelIncome: big('power_level_income'),
    lines: num('lines'),
    earners: num('earners'),
    leveled: num('leveled'),
    journal: num('journal'),
    durationMs: num('duration_ms'),
    phasesMs: Object.fromEntries(Object.entries((s.phases_ms ?? {}) as Record<string, unknown>).map(([k, v]) => [k, Number(v)])),
  };
}

/** The database's own message (drizzle wraps it in a "Failed query" error). */
function errorText(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  for (let e: unknown = error; e instanceof Error; e = e.cause) message = e.message;
  return message;
}
