import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { balanceOf, tokens } from '../../test/money.ts';
import {
  accrueInterest,
  insertProduct,
  join,
  newSaver,
  pledgeGet,
  pledgePost,
  savingsSnapshot,
  seededProduct,
  systemBalance,
  type Saver,
} from '../../test/pledge.ts';
import { rowsOf } from '../../db/rows.ts';
import { auditLedger } from '../ledger/index.ts';
import { interestLinesMax } from './interest.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const receive = (u: Saver, key: string = randomUUID()) => pledgePost(t, u, '/api/v1/financial/receive', {}, { 'idempotency-key': key });
const info = async (u: Saver) => (await pledgeGet(t, u, '/api/v1/financial/receiveInfo')).json().data;

async function position(u: Saver, productId: number, amount: string): Promise<number> {
  const res = await join(t, u, productId, amount);
  if (res.statusCode !== 200) throw new Error(`join failed: ${res.body}`);
  return res.json().data.position.id as number;
}

async function interestRow(userId: number) {
  return rowsOf<{ claimable: string; claimed_total: string }>(
    await t.database.db.execute(sql`select claimable::text, claimed_total::text from pledge_interest where user_id = ${userId}`),
  );
}

describe('savings interest', () => {
  it('shows nothing before any interest, and claiming nothing is NOTHING_TO_CLAIM with nothing changed', async () => {
    const u = await newSaver(t);
    expect(await info(u)).toEqual({ claimable: '0', claimed_total: '0', lines: [], last_settled_epoch: null });
    const before = await savingsSnapshot(t.database.db);
    const res = await receive(u);
    expect([res.statusCode, res.json().reason]).toEqual([400, 'NOTHING_TO_CLAIM']);
    expect(await savingsSnapshot(t.database.db)).toBe(before);
  });

  it('shows the claimable interest with its lines (joint: its share of the budget), and claims all of it to the fund account', async () => {
    const u = await newSaver(t, 5_000);
    const flexible = await position(u, await seededProduct(t.database.db, 'flexible'), '1000');
    const joint = await position(u, await seededProduct(t.database.db, 'joint'), '2000');
    // Epoch 1: 1,000 × 0.03 % = 0.3; the joint position got 5 of the budget (0.25 % of 2,000).
    await accrueInterest(t.database.db, { userId: u.id, positionId: flexible, epoch: 1, amount: tokens(3) / 10n });
    await accrueInterest(t.database.db, { userId: u.id, positionId: joint, epoch: 1, amount: tokens(5) });
    await accrueInterest(t.database.db, { userId: u.id, positionId: flexible, epoch: 2, amount: tokens(3) / 10n });
    await t.database.db.execute(sql`insert into pledge_epochs (epoch, interest_paid, released, positions, settled_at) values (2, 0, 0, 0, now())`);

    expect(await info(u)).toEqual({
      claimable: '5.6',
      claimed_total: '0',
      lines: [
        { epoch: 2, position_id: flexible, name: 'Flexible savings', kind: 'flexible', term_epochs: 0, amount: '0.3', principal: '1000', day_rate: '0.03' },
        { epoch: 1, position_id: joint, name: 'Joint savings', kind: 'joint', term_epochs: 0, amount: '5', principal: '2000', day_rate: '0.25' },
        { epoch: 1, position_id: flexible, name: 'Flexible savings', kind: 'flexible', term_epochs: 0, amount: '0.3', principal: '1000', day_rate: '0.03' },
      ],
      last_settled_epoch: 2,
    });
    const records = (await pledgeGet(t, u, '/api/v1/financial/records')).json().data.list;
    expect(records.map((p: { id: number; interest_total: string }) => [p.id, p.interest_total])).toEqual([
      [joint, '5'],
      [flexible, '0.6'],
    ]);

    const fundBefore = await balanceOf(t.database.db, u.id, 'fund', 'NADI');
    const heldBefore = await systemBalance(t.database.db, 'savings_interest');
    const res = await receive(u);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ amount: '5.6', balance: '2005.6' });
    expect((await balanceOf(t.database.db, u.id, 'fund', 'NADI')).available - fundBefore.available).toBe(tokens(56) / 10n);
    expect(heldBefore - (await systemBalance(t.database.db, 'savings_interest'))).toBe(tokens(56) / 10n);
    expect(await info(u)).toMatchObject({ claimable: '0', claimed_total: '5.6' });
    const journal = rowsOf<{ type: string }>(
      await t.database.db.execute(sql`
        select t.type from ledger_transfers t join ledger_accounts a on a.id = t.credit_account_id
         where a.user_id = ${u.id} and a.kind = 'fund' order by t.id desc limit 1`),
    );
    expect(journal).toEqual([{ type: 'savings_income' }]);
    expect((await auditLedger(t.database.db)).isOk).toBe(true);
  });

  it('claims once when asked twice, and a repeated Idempotency-Key answers the first claim', async () => {
    const u = await newSaver(t);
    const id = await position(u, await seededProduct(t.database.db, 'flexible'), '100');
    await accrueInterest(t.database.db, { userId: u.id, positionId: id, epoch: 1, amount: tokens(2) });
    const key = randomUUID();
    const first = await receive(u, key);
    expect(first.json().data).toEqual({ amount: '2', balance: '9902' });
    const repeat = await receive(u, key);
    expect(repeat.json().data).toEqual(first.json().data);
    const again = await receive(u);
    expect([again.statusCode, again.json().reason]).toEqual([400, 'NOTHING_TO_CLAIM']);
    expect(await interestRow(u.id)).toEqual([{ claimable: '0', claimed_total: tokens(2).toString() }]);
    // Interest accrued later is claimed by the next claim, added to the total.
    await accrueInterest(t.database.db, { userId: u.id, positionId: id, epoch: 2, amount: tokens(1) });
    expect((await receive(u)).json().data).toEqual({ amount: '1', balance: '9903' });
    expect(await info(u)).toMatchObject({ claimable: '0', claimed_total: '3' });
  });

  it('pays once to 12 parallel claims (different keys): the others find nothing to claim', async () => {
    const [u, other] = [await newSaver(t), await newSaver(t)];
    const id = await position(u, await seededProduct(t.database.db, 'flexible'), '100');
    const otherId = await position(other, await seededProduct(t.database.db, 'flexible'), '100');
    await accrueInterest(t.database.db, { userId: u.id, positionId: id, epoch: 1, amount: tokens(7) });
    // Another user's unclaimed interest sits in the same account: it must stay there.
    await accrueInterest(t.database.db, { userId: other.id, positionId: otherId, epoch: 1, amount: tokens(4) });
    const fundBefore = (await balanceOf(t.database.db, u.id, 'fund', 'NADI')).available;
    const results = await Promise.all(Array.from({ length: 12 }, () => receive(u)));
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok.map((r) => r.json().data.amount)).toEqual(['7']);
    for (const r of results.filter((x) => x.statusCode !== 200)) expect(r.json().reason).toBe('NOTHING_TO_CLAIM');
    expect((await balanceOf(t.database.db, u.id, 'fund', 'NADI')).available - fundBefore).toBe(tokens(7));
    expect(await interestRow(other.id)).toEqual([{ claimable: tokens(4).toString(), claimed_total: '0' }]);
    expect(await info(other)).toMatchObject({ claimable: '4' });
    expect((await auditLedger(t.database.db)).isOk).toBe(true);
  });

  it('shows at most a page of the newest lines', async () => {
    const u = await newSaver(t);
    const product = await insertProduct(t.database.db, {
      startsAt: new Date(t.clock.now().getTime() - 1000),
      endsAt: new Date(t.clock.now().getTime() + 86_400_000),
    });
    const id = await position(u, product, '100');
    for (let epoch = 1; epoch <= interestLinesMax + 5; epoch += 1) {
      await accrueInterest(t.database.db, { userId: u.id, positionId: id, epoch, amount: tokens(1) / 100n });
    }
    const data = await info(u);
    expect(data.claimable).toBe('0.25');
    expect(data.lines).toHaveLength(interestLinesMax);
    expect(data.lines[0].epoch).toBe(interestLinesMax + 5);
  });
});
