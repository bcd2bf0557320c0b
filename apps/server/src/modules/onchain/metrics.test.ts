// The chain jobs count into the app's /metrics (deps.metrics): a credited deposit, a withdrawal
// sent and then settled. Against a real Hardhat node, with the same job code the server runs; each
// test reads its series before and after the act, so what another test left cannot make it pass.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { mineBlocks } from '@nadi/chain/local-chain';
import { apiGet, apiPost, newUser, sendToken, startChainTestBed, type ChainTestBed, type TestUser } from '../../test/chain.ts';
import { rootInviteCode } from '../../test/harness.ts';
import { scrape, type Samples } from '../../test/metrics.ts';
import { fundUser, tokens } from '../../test/money.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';
import type { ChainContext } from './chain.ts';
import { scanDepositsOnce } from './deposits/watcher.ts';
import { rangesPerRoundMax } from './scan.ts';
import { hotWalletOf, senderRound, type HotWallet } from './withdrawals/sender.ts';

const operatorAccount = newAccount();
let bed: ChainTestBed;
let ctx: ChainContext;
let hot: HotWallet;
let operator: TestUser;

beforeAll(async () => {
  bed = await startChainTestBed({ OPERATOR_ADDRESSES: operatorAccount.address });
  ctx = bed.context();
  hot = hotWalletOf(bed.t.settings.hotWalletPrivateKey);
  operator = await signedIn(operatorAccount);
});
afterAll(async () => {
  await bed?.close();
});

/** Confirmations the test bed's chain context requires (deposits and withdrawals alike). */
const confirmationsRequired = 3;

async function signedIn(account: PrivateKeyAccount): Promise<TestUser> {
  const token = await signIn(bed.t.app, account, rootInviteCode);
  const info = await apiGet(bed.t, token, '/api/v1/user/info');
  return { token, id: info.json().data.id };
}

describe('chain job metrics', () => {
  it('counts a deposit once, when it is credited', async () => {
    const credited = { asset: 'NADI' };
    const before = (await scrape(bed.t.app))('deposits_credited_total', credited);
    const user = await newUser(bed.t);
    const address = (await apiGet(bed.t, user.token, '/api/v1/recharge/address')).json().data.address as Address;
    expect((await sendToken(bed, 1, bed.contracts.nadi, address, tokens(7))).status).toBe('success');

    const scan = () => scanDepositsOnce(bed.t.app.deps, ctx, bed.t.app.log);
    expect((await scan()).credited).toBe(0);
    expect((await scrape(bed.t.app))('deposits_credited_total', credited)).toBe(before);
    await mineBlocks(bed.chain.rpcUrl, confirmationsRequired - 1);
    expect((await scan()).credited).toBe(1);
    expect((await scrape(bed.t.app))('deposits_credited_total', credited)).toBe((before ?? 0) + 1);
    // Further rounds credit nothing more, and count nothing more.
    await scan();
    expect((await scrape(bed.t.app))('deposits_credited_total', credited)).toBe((before ?? 0) + 1);
  });

  it('counts a withdrawal when it is first sent, and again by outcome when it settles', async () => {
    const user = await newUser(bed.t);
    await fundUser(bed.t.database.db, user.id, 'NADI', tokens(20));
    const id = (await apiPost(bed.t, user.token, '/api/v1/withdraw/apply', { amount: '10' })).json().data.id as number;
    expect((await apiPost(bed.t, operator.token, '/api/v1/operator/withdraw/approve', { id })).statusCode).toBe(200);
    const before = await scrape(bed.t.app);
    const completed = { outcome: 'completed' };

    const round = () => senderRound(bed.t.app.deps, ctx, hot, bed.t.app.log);
    expect((await round()).sent.broadcast).toBe(1);
    const sent = await scrape(bed.t.app);
    expect(sent('withdrawals_broadcast_total')).toBe((before('withdrawals_broadcast_total') ?? 0) + 1);
    expect(sent('withdrawals_settled_total', completed)).toBe(before('withdrawals_settled_total', completed));

    // Automine gave it one confirmation; the rest are mined. A re-broadcast would not count as sent.
    await mineBlocks(bed.chain.rpcUrl, confirmationsRequired - 1);
    expect((await round()).confirmed.completed).toBe(1);
    const settled = await scrape(bed.t.app);
    expect(settled('withdrawals_settled_total', completed)).toBe((before('withdrawals_settled_total', completed) ?? 0) + 1);
    expect(settled('withdrawals_settled_total', { outcome: 'failed' })).toBe(before('withdrawals_settled_total', { outcome: 'failed' }));
    expect(settled('withdrawals_broadcast_total')).toBe(sent('withdrawals_broadcast_total'));
  });

  it('shows the withdrawals waiting for review, then for the sender, and neither once sent', async () => {
    const queue = (s: Samples, name: string) => [
      s('withdrawals_waiting', { queue: name, measure: 'count' }),
      s('withdrawals_waiting', { queue: name, measure: 'oldest_seconds' }),
    ];
    const before = await scrape(bed.t.app);
    const [review, approved] = [queue(before, 'review')[0] ?? 0, queue(before, 'approved')[0] ?? 0];
    const user = await newUser(bed.t);
    await fundUser(bed.t.database.db, user.id, 'NADI', tokens(20));
    const id = (await apiPost(bed.t, user.token, '/api/v1/withdraw/apply', { amount: '10' })).json().data.id as number;
    const requested = await scrape(bed.t.app);
    expect(queue(requested, 'review')[0]).toBe(review + 1);
    expect(queue(requested, 'review')[1]).toBeGreaterThan(0);
    expect(queue(requested, 'approved')[0]).toBe(approved);

    expect((await apiPost(bed.t, operator.token, '/api/v1/operator/withdraw/approve', { id })).statusCode).toBe(200);
    const reviewed = await scrape(bed.t.app);
    expect(queue(reviewed, 'review')[0]).toBe(review);
    expect(queue(reviewed, 'approved')[0]).toBe(approved + 1);
    expect(queue(reviewed, 'approved')[1]).toBeGreaterThan(0);

    expect((await senderRound(bed.t.app.deps, ctx, hot, bed.t.app.log)).sent.broadcast).toBe(1);
    expect(queue(await scrape(bed.t.app), 'approved')).toEqual([0, 0]);
  });

  it('shows how far the deposit scanner is behind the head, and when it last read the head', async () => {
    // One block per range: a round reads rangesPerRoundMax blocks at most, so a longer gap stays behind.
    const slow = { ...ctx, scanBlocksMax: 1 };
    const scanner = { scanner: 'deposits' };
    const scan = () => scanDepositsOnce(bed.t.app.deps, slow, bed.t.app.log);
    const behind = async () => (await scrape(bed.t.app))('chain_scanner_blocks_behind', scanner);
    for (let round = 0; round < 50; round += 1) {
      await scan();
      if ((await behind()) === 0) break;
    }
    expect(await behind()).toBe(0);

    // One call per block: after one many-block hardhat_mine the scanner stopped two blocks in (it
    // took the blocks Hardhat fills in lazily for a changed chain).
    for (let i = 0; i < rangesPerRoundMax + 5; i += 1) await mineBlocks(bed.chain.rpcUrl, 1);
    bed.t.clock.advance(90_000);
    await scan();
    const after = await scrape(bed.t.app);
    expect(after('chain_scanner_blocks_behind', scanner)).toBe(5);
    expect(after('chain_scanner_head_read_timestamp_seconds', scanner)).toBe(bed.t.clock.now().getTime() / 1000);
    await scan();
    expect(await behind()).toBe(0);
  });
});
