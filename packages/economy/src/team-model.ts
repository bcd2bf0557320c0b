// The reference model of the settlement's team part (docs/team.md "Rewards"; the SQL is
// team_settle_epoch, apps/server/src/modules/team/sql/team_settle_epoch.sql): from the invite tree, the purchases, one epoch's mining incomes,
// the parameters and what the referral pool holds, the lines and what each is paid. Written the plain
// way (a walk up each earner's referrers, purchases summed from scratch) so that a test comparing the
// two checks the SQL's set-based shortcuts: performance at the end as "now minus later events", the
// running maximum over closure rows, the branch found by the row before.
import { bpsOf, levelDifferenceParts, levelOf, levelRateBps, roundBps, type TeamLevel, type TeamParams } from './team.ts';
import { proRata } from './rewards.ts';

export const teamSettleKinds = ['share_income', 'community_power_income', 'power_level_income'] as const;
export type TeamSettleKind = (typeof teamSettleKinds)[number];

export interface TeamModelUser {
  id: number;
  /** Null for a root of the tree. */
  referrerId: number | null;
}

export interface TeamModelPurchase {
  userId: number;
  /** USDT base units; negative for a reversal. */
  usdt: bigint;
  at: Date;
}

export interface TeamModelInput {
  users: readonly TeamModelUser[];
  /** Every purchase and reversal recorded; those at or after `endsAt` do not count for the epoch. */
  purchases: readonly TeamModelPurchase[];
  endsAt: Date;
  /** Each user's mining income of the epoch (device + destroy + power income). */
  incomes: ReadonlyMap<number, bigint>;
  params: TeamParams;
  /** What the referral pool holds. */
  pool: bigint;
}

/** One team_rewards line of the settlement. */
export interface TeamLine {
  userId: number;
  kind: TeamSettleKind;
  sourceUserId: number;
  sourceDepth: number;
  sourceAmount: bigint;
  rateBps: bigint;
  lowerNumerator: bigint;
  wanted: bigint;
  amount: bigint;
}

export interface TeamStanding {
  mePerformance: bigint;
  teamPerformance: bigint;
  activeDirects: number;
  level: TeamLevel;
}

export interface TeamSettleModel {
  standings: Map<number, TeamStanding>;
  /** Ordered by user, kind (as in teamSettleKinds), source. */
  lines: TeamLine[];
  wanted: bigint;
  payable: bigint;
  paid: bigint;
  /** What each user is credited per kind (one ledger leg each), keyed `${userId}:${kind}`; only amounts above zero. */
  legs: Map<string, bigint>;
}

/** Each user's own and team performance at the end, active directs and level. */
export function standingsAt(users: readonly TeamModelUser[], purchases: readonly TeamModelPurchase[], endsAt: Date, params: TeamParams) {
  const me = new Map<number, bigint>(users.map((u) => [u.id, 0n]));
  for (const p of purchases) if (p.at.getTime() < endsAt.getTime()) me.set(p.userId, (me.get(p.userId) ?? 0n) + p.usdt);
  const team = new Map<number, bigint>(users.map((u) => [u.id, 0n]));
  const active = new Map<number, number>(users.map((u) => [u.id, 0]));
  const referrers = referrersOf(users);
  for (const u of users) {
    const own = me.get(u.id) ?? 0n;
    for (const ancestor of ancestorsOf(u.id, referrers)) team.set(ancestor, (team.get(ancestor) ?? 0n) + own);
    if (u.referrerId !== null && own > 0n) active.set(u.referrerId, (active.get(u.referrerId) ?? 0) + 1);
  }
  const standings = new Map<number, TeamStanding>();
  for (const u of users) {
    const [mePerformance, teamPerformance, activeDirects] = [me.get(u.id) ?? 0n, team.get(u.id) ?? 0n, active.get(u.id) ?? 0];
    standings.set(u.id, { mePerformance, teamPerformance, activeDirects, level: levelOf(teamPerformance, activeDirects, params) });
  }
  return standings;
}

function referrersOf(users: readonly TeamModelUser[]): Map<number, number | null> {
  return new Map(users.map((u) => [u.id, u.referrerId]));
}

/** The user's ancestors, nearest first (the referrer, its referrer, …). */
export function ancestorsOf(userId: number, referrers: ReadonlyMap<number, number | null>): number[] {
  const chain: number[] = [];
  for (let at = referrers.get(userId) ?? null; at !== null; at = referrers.get(at) ?? null) {
    if (chain.length > referrers.size) throw new Error(`the referrers of user ${userId} form a cycle`);
    chain.push(at);
  }
  return chain;
}

/** The settlement's team part for one epoch. */
export function modelTeamSettle(input: TeamModelInput): TeamSettleModel {
  const { params } = input;
  const standings = standingsAt(input.users, input.purchases, input.endsAt, params);
  const referrers = referrersOf(input.users);
  const levelOfUser = (id: number): TeamLevel => standings.get(id)?.level ?? levelOf(0n, 0, params);
  const lines: Omit<TeamLine, 'amount'>[] = [];
  const community = new Map<string, { userId: number; branch: number; rateBps: bigint; numerator: bigint; lower: bigint; source: bigint }>();
  for (const [earner, income] of [...input.incomes].sort(([a], [b]) => a - b)) {
    if (income <= 0n) continue;
    const chain = ancestorsOf(earner, referrers);
    chain.slice(0, 2).forEach((ancestor, i) => {
      const rateBps = i === 0 ? params.teamShareLevel1Bps : params.teamShareLevel2Bps;
      lines.push({
        userId: ancestor,
        kind: 'share_income',
        sourceUserId: earner,
        sourceDepth: i + 1,
        sourceAmount: income,
        rateBps,
        lowerNumerator: 0n,
        wanted: bpsOf(income, rateBps),
      });
    });
    const rates = chain.map((ancestor) => levelRateBps(levelOfUser(ancestor), params));
    levelDifferenceParts(income, rates).forEach((part, i) => {
      if (part.numerator <= 0n) return;
      const userId = chain[i] as number;
      const branch = i === 0 ? earner : (chain[i - 1] as number);
      const key = `${userId}:${branch}`;
      const line = community.get(key) ?? { userId, branch, rateBps: rates[i] as bigint, numerator: 0n, lower: 0n, source: 0n };
      line.numerator += part.numerator;
      line.lower += part.lowerNumerator;
      line.source += income;
      community.set(key, line);
    });
    if (levelOfUser(earner) >= params.teamPowerLevelMin) {
      const rateBps = params.teamPowerLevelBps;
      lines.push({
        userId: earner,
        kind: 'power_level_income',
        sourceUserId: earner,
        sourceDepth: 0,
        sourceAmount: income,
        rateBps,
        lowerNumerator: 0n,
        wanted: bpsOf(income, rateBps),
      });
    }
  }
  for (const c of community.values()) {
    lines.push({
      ...{ userId: c.userId, kind: 'community_power_income', sourceUserId: c.branch, sourceDepth: 1 },
      ...{ sourceAmount: c.source, rateBps: c.rateBps, lowerNumerator: c.lower, wanted: roundBps(c.numerator) },
    });
  }
  return paid(standings, lines.filter((l) => l.wanted > 0n).sort(byLine), input.pool);
}

function byLine(a: Omit<TeamLine, 'amount'>, b: Omit<TeamLine, 'amount'>): number {
  return a.userId - b.userId || teamSettleKinds.indexOf(a.kind) - teamSettleKinds.indexOf(b.kind) || a.sourceUserId - b.sourceUserId;
}

/** What the pool pays of the lines (proRata), and the legs. */
function paid(standings: Map<number, TeamStanding>, owed: Omit<TeamLine, 'amount'>[], pool: bigint): TeamSettleModel {
  const amounts = proRata(
    owed.map((l) => l.wanted),
    pool,
  );
  const lines = owed.map((l, i) => ({ ...l, amount: amounts[i] as bigint }));
  const wanted = lines.reduce((s, l) => s + l.wanted, 0n);
  const legs = new Map<string, bigint>();
  for (const l of lines) {
    if (l.amount <= 0n) continue;
    const key = `${l.userId}:${l.kind}`;
    legs.set(key, (legs.get(key) ?? 0n) + l.amount);
  }
  const available = pool > 0n ? pool : 0n;
  return {
    standings,
    lines,
    wanted,
    payable: wanted < available ? wanted : available,
    paid: lines.reduce((s, l) => s + l.amount, 0n),
    legs,
  };
}
