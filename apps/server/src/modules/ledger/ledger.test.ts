import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Asset } from '@nadi/api/wallet';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { balanceOf, freezeFunds, fundUser, tokens, unfreezeFunds } from '../../test/money.ts';
import { inRolledBackTransaction } from '../../test/rolled-back.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';
import { AppError } from '../../lib/app-error.ts';
import { rowsOf } from '../../db/rows.ts';
import { transferBetweenAccounts } from '../wallet/index.ts';
import { auditLedger } from './audit.ts';
import { flowJson, runFlow } from './ledger.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function newUserId(): Promise<number> {
  const token = await signIn(t.app, newAccount(), rootInviteCode);
  return (await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: token } })).json().data.id;
}

// ─── Model-based: random command sequences against an in-memory model ─────────────────────────
type Part = 'available' | 'frozen';
type Balances = Record<string, bigint>;
const slot = (kind: string, asset: Asset, part: Part) => `${kind}:${asset}:${part}`;

interface Real {
  users: number[];
  keys: { key: string; input: Parameters<typeof transferBetweenAccounts>[3]; user: number; answer: Awaited<ReturnType<typeof transferBetweenAccounts>> }[];
}
interface Model {
  balances: Map<number, Balances>;
}

function get(model: Model, user: number, key: string): bigint {
  return model.balances.get(user)?.[key] ?? 0n;
}
function add(model: Model, user: number, key: string, delta: bigint): void {
  const b = model.balances.get(user) ?? {};
  b[key] = (b[key] ?? 0n) + delta;
  model.balances.set(user, b);
}

/** Runs the real operation; an INSUFFICIENT_BALANCE refusal is expected exactly when the model says so. */
async function expectOutcome(isAllowed: boolean, op: () => Promise<unknown>): Promise<void> {
  if (isAllowed) {
    await op();
    return;
  }
  await expect(op()).rejects.toSatisfy((e: unknown) => e instanceof AppError && e.reason === 'INSUFFICIENT_BALANCE');
}

async function checkAgainstModel(model: Model, real: Real): Promise<void> {
  for (const user of real.users) {
    for (const kind of ['fund', 'trade'] as const) {
      for (const asset of ['NADI', 'USDT'] as const) {
        const actual = await balanceOf(t.database.db, user, kind, asset);
        expect(actual.available).toBe(get(model, user, slot(kind, asset, 'available')));
        expect(actual.frozen).toBe(get(model, user, slot(kind, asset, 'frozen')));
      }
    }
  }
  const totals = rowsOf<{ s: string }>(await t.database.db.execute(sql`select asset, sum(available + frozen)::text as s from ledger_accounts group by asset`));
  for (const row of totals) expect(row.s).toBe('0');
}

const amountArb = fc.bigInt({ min: 1n, max: tokens(60) });
const assetArb = fc.constantFrom<Asset>('NADI', 'USDT');
const userArb = fc.nat({ max: 2 });

class FundCommand implements fc.AsyncCommand<Model, Real> {
  readonly user: number;
  readonly asset: Asset;
  readonly amount: bigint;
  constructor(user: number, asset: Asset, amount: bigint) {
    this.user = user;
    this.asset = asset;
    this.amount = amount;
  }
  check = () => true;
  async run(model: Model, real: Real) {
    const id = real.users[this.user] as number;
    await fundUser(t.database.db, id, this.asset, this.amount);
    add(model, id, slot('fund', this.asset, 'available'), this.amount);
    await checkAgainstModel(model, real);
  }
  toString = () => `fund(${this.user}, ${this.asset}, ${this.amount})`;
}

class TransferCommand implements fc.AsyncCommand<Model, Real> {
  readonly user: number;
  readonly asset: Asset;
  readonly toTrade: boolean;
  readonly amount: bigint;
  constructor(user: number, asset: Asset, toTrade: boolean, amount: bigint) {
    this.user = user;
    this.asset = asset;
    this.toTrade = toTrade;
    this.amount = amount;
  }
  check = () => true;
  async run(model: Model, real: Real) {
    const id = real.users[this.user] as number;
    const [from, to] = this.toTrade ? (['fund', 'trade'] as const) : (['trade', 'fund'] as const);
    const isAllowed = get(model, id, slot(from, this.asset, 'available')) >= this.amount;
    const key = `model:${randomUUID()}`;
    const input = { asset: this.asset, from, to, amount: this.amount };
    if (isAllowed) {
      const answer = await transferBetweenAccounts(t.app.deps, id, key, input);
      add(model, id, slot(from, this.asset, 'available'), -this.amount);
      add(model, id, slot(to, this.asset, 'available'), this.amount);
      real.keys.push({ key, input, user: id, answer });
    } else {
      await expectOutcome(false, () => transferBetweenAccounts(t.app.deps, id, key, input));
    }
    await checkAgainstModel(model, real);
  }
  toString = () => `transfer(${this.user}, ${this.asset}, ${this.toTrade ? 'fund→trade' : 'trade→fund'}, ${this.amount})`;
}

class HoldCommand implements fc.AsyncCommand<Model, Real> {
  readonly user: number;
  readonly asset: Asset;
  readonly isFreeze: boolean;
  readonly amount: bigint;
  constructor(user: number, asset: Asset, isFreeze: boolean, amount: bigint) {
    this.user = user;
    this.asset = asset;
    this.isFreeze = isFreeze;
    this.amount = amount;
  }
  check = () => true;
  async run(model: Model, real: Real) {
    const id = real.users[this.user] as number;
    const source = slot('fund', this.asset, this.isFreeze ? 'available' : 'frozen');
    const target = slot('fund', this.asset, this.isFreeze ? 'frozen' : 'available');
    const isAllowed = get(model, id, source) >= this.amount;
    const input = { userId: id, kind: 'fund' as const, asset: this.asset, amount: this.amount, reason: 'model' };
    const op = this.isFreeze ? freezeFunds : unfreezeFunds;
    await expectOutcome(isAllowed, () => op(t.database.db, `model:${randomUUID()}`, input));
    if (isAllowed) {
      add(model, id, source, -this.amount);
      add(model, id, target, this.amount);
    }
    await checkAgainstModel(model, real);
  }
  toString = () => `${this.isFreeze ? 'freeze' : 'unfreeze'}(${this.user}, ${this.asset}, ${this.amount})`;
}

async function flowCount(key: string): Promise<number> {
  return rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from ledger_flows where idempotency_key = ${key}`))[0]?.n ?? 0;
}

class ReplayCommand implements fc.AsyncCommand<Model, Real> {
  readonly index: number;
  constructor(index: number) {
    this.index = index;
  }
  check = () => true;
  async run(model: Model, real: Real) {
    const earlier = real.keys[this.index % Math.max(real.keys.length, 1)];
    if (!earlier) return;
    // The first answer again (same flow id and time), one flow for the key, and the model unchanged:
    // checkAgainstModel then proves no balance moved.
    expect(await transferBetweenAccounts(t.app.deps, earlier.user, earlier.key, earlier.input)).toEqual(earlier.answer);
    expect(await flowCount(earlier.key)).toBe(1);
    await checkAgainstModel(model, real);
  }
  toString = () => `replay(${this.index})`;
}

describe('ledger against a model', () => {
  it('agrees with the model after every command and keeps every invariant', async () => {
    const commands = [
      fc.tuple(userArb, assetArb, amountArb).map(([u, a, x]) => new FundCommand(u, a, x)),
      fc.tuple(userArb, assetArb, fc.boolean(), amountArb).map(([u, a, d, x]) => new TransferCommand(u, a, d, x)),
      fc.tuple(userArb, assetArb, fc.boolean(), amountArb).map(([u, a, f, x]) => new HoldCommand(u, a, f, x)),
      fc.nat({ max: 50 }).map((i) => new ReplayCommand(i)),
    ];
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 25 }), async (cmds) => {
        const real: Real = { users: [await newUserId(), await newUserId(), await newUserId()], keys: [] };
        await fc.asyncModelRun(() => ({ model: { balances: new Map() }, real }), cmds);
        const report = await auditLedger(t.database.db);
        expect(report.problems).toEqual([]);
      }),
      { numRuns: 12, seed: 20261122 },
    );
  }, 120_000);
});

describe('a repeated idempotency key', () => {
  it('answers the first outcome as a replay and moves nothing', async () => {
    const id = await newUserId();
    await fundUser(t.database.db, id, 'USDT', tokens(10));
    const request = {
      idempotencyKey: `test-replay:${randomUUID()}`,
      userId: id,
      type: 'balance_transfer' as const,
      params: { id, amount: '3' },
      legs: [
        {
          type: 'balance_transfer' as const,
          debit: { userId: id, kind: 'fund' as const, asset: 'USDT' as const },
          credit: { userId: id, kind: 'trade' as const, asset: 'USDT' as const },
          amount: tokens(3),
        },
      ],
      result: ({ flowId, createdAt }: { flowId: number; createdAt: Date }) => ({ flowId, at: createdAt.toISOString() }),
    };
    const first = await runFlow(t.database.db, request);
    expect(first.isReplay).toBe(false);
    const balances = async () => [await balanceOf(t.database.db, id, 'fund', 'USDT'), await balanceOf(t.database.db, id, 'trade', 'USDT')];
    const after = await balances();
    expect(after).toEqual([
      { available: tokens(7), frozen: 0n },
      { available: tokens(3), frozen: 0n },
    ]);
    const again = await runFlow(t.database.db, request);
    expect(again).toEqual({ flowId: first.flowId, result: first.result, isReplay: true });
    expect(await balances()).toEqual(after);
    expect(await flowCount(request.idempotencyKey)).toBe(1);
  });
});

describe('guards in the database itself', () => {
  it('refuses to edit or delete a journal row', async () => {
    const id = await newUserId();
    await fundUser(t.database.db, id, 'NADI', tokens(1));
    await expect(t.database.db.execute(sql`update ledger_transfers set amount = amount + 1`)).rejects.toThrow();
    await expect(t.database.db.execute(sql`delete from ledger_transfers`)).rejects.toThrow();
  });

  it('refuses a negative user balance even when code would write one', async () => {
    const id = await newUserId();
    await expect(
      t.database.db.execute(sql`update ledger_accounts set available = -1 where user_id = ${id} and kind = 'fund' and asset = 'NADI'`),
    ).rejects.toThrow();
  });

  it('updates balances in place: posting to accounts on pages just written adds no index entry (HOT updates)', async () => {
    // In a transaction rolled back at the end: 60 users' 300 accounts, laid out as the table's pages
    // allow, then one statement crediting each user's trade USDT from the treasury. Every account
    // update must stay on its page (n_tup_hot_upd); on full pages each would write a new tuple
    // elsewhere and an entry in every index (migration 0010).
    const usersCount = 60;
    const seen = await inRolledBackTransaction(t.database.db, async (tx) => {
      const ids = rowsOf<{ id: number }>(
        await tx.execute(sql`insert into users (address, invite_code, name)
          select '0x' || lpad(to_hex(g), 40, 'e'), 'HOTUPD' || g, 'hot-' || g from generate_series(1, ${usersCount}) g returning id`),
      ).map((r) => r.id);
      await tx.execute(sql`insert into ledger_accounts (user_id, kind, asset, is_system)
        select u.id, k.kind, k.asset, false from users u
        cross join (values ('fund', 'NADI'), ('fund', 'USDT'), ('trade', 'NADI'), ('trade', 'USDT'), ('destroy_quota', 'USDT')) k(kind, asset)
        where u.invite_code like 'HOTUPD%'`);
      const flows = ids.map((id) =>
        flowJson({
          idempotencyKey: `test-hot:${randomUUID()}`,
          userId: id,
          type: 'data_adjustment',
          params: { id },
          legs: [
            {
              type: 'data_adjustment',
              debit: { userId: null, kind: 'treasury', asset: 'USDT' },
              credit: { userId: id, kind: 'trade', asset: 'USDT' },
              amount: tokens(1),
            },
          ],
        }),
      );
      const updates = async () =>
        rowsOf<{ upd: string; hot: string }>(
          await tx.execute(sql`select n_tup_upd::text as upd, n_tup_hot_upd::text as hot from pg_stat_xact_user_tables where relname = 'ledger_accounts'`),
        )[0] ?? { upd: '0', hot: '0' };
      const before = await updates();
      await tx.execute(sql`select ledger_post_flows(${JSON.stringify(flows)}::jsonb, now())`);
      const after = await updates();
      return { updated: Number(after.upd) - Number(before.upd), hot: Number(after.hot) - Number(before.hot) };
    });
    expect(seen).toEqual({ updated: usersCount + 1, hot: usersCount + 1 });
  });

  it('has the audit name an account whose cached balance drifted from its journal', async () => {
    const id = await newUserId();
    await fundUser(t.database.db, id, 'USDT', tokens(5));
    expect((await auditLedger(t.database.db)).isOk).toBe(true);
    await t.database.db.execute(sql`update ledger_accounts set available = available + 1 where user_id = ${id} and kind = 'fund' and asset = 'USDT'`);
    const report = await auditLedger(t.database.db);
    expect(report.isOk).toBe(false);
    expect(report.problems.join('\n')).toMatch(new RegExp(`user ${id} fund USDT`));
    expect(report.problems.join('\n')).toMatch(/asset USDT sums to 1, not 0/);
    await t.database.db.execute(sql`update ledger_accounts set available = available - 1 where user_id = ${id} and kind = 'fund' and asset = 'USDT'`);
    expect((await auditLedger(t.database.db)).isOk).toBe(true);
  });
});
