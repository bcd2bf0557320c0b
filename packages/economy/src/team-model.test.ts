import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unit } from './economy.ts';
import { teamDefaults, type TeamParams } from './team.ts';
import { modelTeamSettle, type TeamModelPurchase, type TeamModelUser } from './team-model.ts';

const endsAt = new Date('2026-11-23T00:00:00.000Z');
const before = new Date(endsAt.getTime() - 1);
const usdt = (n: bigint) => n * unit;

/** root ← mid ← leaf, and a second direct of the root, side. */
const users: TeamModelUser[] = [
  { id: 1, referrerId: null },
  { id: 2, referrerId: 1 },
  { id: 3, referrerId: 2 },
  { id: 4, referrerId: 1 },
];

describe('the team part of the settlement, by hand', () => {
  it('pays share income two levels up, community income by level difference per branch, power level income from V3', () => {
    // mid: 1 active direct (leaf) and 1,000 USDT below: V1 (2 %). root: 2 active directs (mid, side)
    // and 60,000 USDT below, but V3 needs 3 directs: V2 (4 %).
    const purchases: TeamModelPurchase[] = [
      { userId: 3, usdt: usdt(1_000n), at: before },
      { userId: 2, usdt: usdt(9_000n), at: before },
      { userId: 4, usdt: usdt(50_000n), at: before },
      // After the end: counts from the next epoch on (root would be 1,000,000 ahead).
      { userId: 4, usdt: usdt(1_000_000n), at: endsAt },
    ];
    const incomes = new Map([
      [3, 10_000n],
      [4, 999n],
    ]);
    const m = modelTeamSettle({ users, purchases, endsAt, incomes, params: teamDefaults, pool: 10n ** 30n });
    expect([...m.standings].map(([id, s]) => [id, s.level])).toEqual([
      [1, 2],
      [2, 1],
      [3, 0],
      [4, 0],
    ]);
    const line = (
      userId: number,
      kind: string,
      sourceUserId: number,
      sourceDepth: number,
      sourceAmount: bigint,
      rateBps: bigint,
      lower: bigint,
      wanted: bigint,
    ) => ({
      ...{ userId, kind, sourceUserId, sourceDepth, sourceAmount, rateBps, lowerNumerator: lower, wanted, amount: wanted },
    });
    expect(m.lines).toEqual([
      // root: 5 % of the leaf, 10 % of side; community 4 % − 2 % on the leaf (branch mid), 4 % on side.
      line(1, 'share_income', 3, 2, 10_000n, 500n, 0n, 500n),
      line(1, 'share_income', 4, 1, 999n, 1_000n, 0n, 99n),
      line(1, 'community_power_income', 2, 1, 10_000n, 400n, 200n * 10_000n, 200n),
      line(1, 'community_power_income', 4, 1, 999n, 400n, 0n, 39n),
      // mid: 10 % of the leaf, community 2 %.
      line(2, 'share_income', 3, 1, 10_000n, 1_000n, 0n, 1_000n),
      line(2, 'community_power_income', 3, 1, 10_000n, 200n, 0n, 200n),
    ]);
    expect(m.paid).toBe(500n + 99n + 200n + 39n + 1_000n + 200n);
    expect(m.legs.get('1:community_power_income')).toBe(239n);
  });

  it('sums a branch before rounding; a V3 gets power level income, a rate no higher than one below earns nothing', () => {
    // Everyone is V1 at 1 bps; the root, with two active directs, V2 at 2 bps.
    const params: TeamParams = {
      ...teamDefaults,
      ...{ teamLevel1Usdt: 0n, teamLevel1Directs: 0, teamLevel1RateBps: 1n, teamLevel2Usdt: 0n, teamLevel2Directs: 2, teamLevel2RateBps: 2n },
    };
    const twoLeaves: TeamModelUser[] = [...users, { id: 5, referrerId: 2 }];
    const purchases = [2, 4].map((userId) => ({ userId, usdt: 1n, at: before }));
    const incomes = new Map([
      [3, 5_000n],
      [5, 5_000n],
    ]);
    const m = modelTeamSettle({ users: twoLeaves, purchases, endsAt, incomes, params, pool: 10n ** 30n });
    // mid's 1 bps on each leaf alone is half a unit (no line); the root's 2 − 1 bps on both, summed, is one.
    expect(m.lines.filter((l) => l.kind === 'community_power_income')).toEqual([
      {
        ...{ userId: 1, kind: 'community_power_income', sourceUserId: 2, sourceDepth: 1, sourceAmount: 10_000n },
        ...{ rateBps: 2n, lowerNumerator: 10_000n, wanted: 1n, amount: 1n },
      },
    ]);
    const v3: TeamParams = { ...teamDefaults, teamLevel3Usdt: 0n, teamLevel3Directs: 0 };
    const power = modelTeamSettle({ users, purchases: [], endsAt, incomes: new Map([[3, 30_000n]]), params: v3, pool: 10n ** 30n });
    expect(power.lines.filter((l) => l.kind !== 'share_income').map((l) => [l.userId, l.kind, l.sourceUserId, l.sourceDepth, l.wanted])).toEqual([
      // Everyone is V3: the leaf's referrer takes 6 % of it, the root nothing more (no higher rate).
      [2, 'community_power_income', 3, 1, 1_800n],
      [3, 'power_level_income', 3, 0, 1_500n],
    ]);
  });

  it('pays each line its share of a pool that holds less, rounded down', () => {
    const incomes = new Map([
      [2, 1_000n],
      [3, 1_000n],
      [4, 1_000n],
    ]);
    const full = modelTeamSettle({ users, purchases: [], endsAt, incomes, params: teamDefaults, pool: 10n ** 30n });
    const short = modelTeamSettle({ users, purchases: [], endsAt, incomes, params: teamDefaults, pool: 101n });
    expect(full.wanted).toBe(100n + 100n + 100n + 50n);
    expect(short).toMatchObject({ wanted: full.wanted, payable: 101n });
    expect(short.lines.map((l) => l.amount)).toEqual(full.lines.map((l) => (l.wanted * 101n) / full.wanted));
    expect(short.paid).toBeLessThanOrEqual(101n);
    const empty = modelTeamSettle({ users, purchases: [], endsAt, incomes, params: teamDefaults, pool: -5n });
    expect([empty.payable, empty.paid, empty.legs.size]).toEqual([0n, 0n, 0]);
  });
});

const treeArb = fc
  .array(fc.option(fc.nat(), { nil: null, freq: 6 }), { minLength: 1, maxLength: 30 })
  .map((parents) => parents.map((p, i): TeamModelUser => ({ id: i + 1, referrerId: p === null || i === 0 ? null : (p % i) + 1 })));
const rateArb = fc.bigInt(0n, 5_000n);
const paramsArb = fc.record({
  ...{ teamShareLevel1Bps: rateArb, teamShareLevel2Bps: rateArb, teamPowerLevelBps: rateArb, teamPowerLevelMin: fc.integer({ min: 1, max: 5 }) },
  ...{ teamLevel1RateBps: rateArb, teamLevel2RateBps: rateArb, teamLevel3RateBps: rateArb, teamLevel4RateBps: rateArb, teamLevel5RateBps: rateArb },
  ...{ teamLevel1Usdt: fc.bigInt(0n, 3_000n), teamLevel2Usdt: fc.bigInt(0n, 3_000n), teamLevel3Usdt: fc.bigInt(0n, 3_000n) },
  ...{ teamLevel1Directs: fc.nat(2), teamLevel2Directs: fc.nat(2), teamLevel3Directs: fc.nat(3) },
});

describe('the team part of the settlement, for any tree', () => {
  it('pays at most the pool and what is wanted; every line follows from its inputs; community income is the highest rate above each earner', () => {
    fc.assert(
      fc.property(
        treeArb,
        paramsArb,
        fc.array(fc.record({ user: fc.nat(), usdt: fc.bigInt(1n, 2_000n), late: fc.boolean() }), { maxLength: 30 }),
        fc.array(fc.bigInt(0n, 10n ** 22n), { maxLength: 30 }),
        fc.bigInt(-10n, 10n ** 22n),
        (tree, drawn, buys, incomeList, pool) => {
          const params = { ...teamDefaults, ...drawn };
          const purchases = buys.map((b) => ({ userId: (b.user % tree.length) + 1, usdt: b.usdt, at: b.late ? endsAt : before }));
          const incomes = new Map(incomeList.slice(0, tree.length).map((income, i) => [i + 1, income]));
          const m = modelTeamSettle({ users: tree, purchases, endsAt, incomes, params, pool });
          expect(m.paid).toBeLessThanOrEqual(m.payable);
          expect(m.payable).toBeLessThanOrEqual(pool > 0n ? pool : 0n);
          let communityNumerator = 0n;
          for (const l of m.lines) {
            expect(l.wanted).toBeGreaterThan(0n);
            expect(l.amount).toBeLessThanOrEqual(l.wanted);
            if (l.kind === 'community_power_income') {
              expect(l.wanted).toBe((l.rateBps * l.sourceAmount - l.lowerNumerator) / 10_000n);
              communityNumerator += l.rateBps * l.sourceAmount - l.lowerNumerator;
            } else expect(l.wanted).toBe((l.sourceAmount * l.rateBps) / 10_000n);
          }
          // Σ over lines of rate × source − lower ≤ Σ over earners of the highest ancestor rate × income.
          const rateOf = (id: number) =>
            [0n, ...[1, 2, 3, 4, 5].map((k) => params[`teamLevel${k}RateBps` as keyof typeof params] as bigint)][m.standings.get(id)?.level ?? 0] as bigint;
          let highest = 0n;
          for (const [earner, income] of incomes) {
            let max = 0n;
            for (let at = tree[earner - 1]?.referrerId ?? null; at !== null; at = tree[at - 1]?.referrerId ?? null) if (rateOf(at) > max) max = rateOf(at);
            highest += max * income;
          }
          expect(communityNumerator).toBeLessThanOrEqual(highest);
        },
      ),
    );
  });
});
