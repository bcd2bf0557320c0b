import { eq, sql } from 'drizzle-orm';
import { parseEther, toHex, type Address, type Hash } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nadiTokenAbi } from '@nadi/chain/artifacts';
import { localWalletClient } from '@nadi/chain/clients';
import { demoUserAddresses } from '@nadi/chain/demo-accounts';
import { mineBlocks, rpcRequest } from '@nadi/chain/local-chain';
import { rowsOf } from '../../../db/rows.ts';
import { withdrawals } from '../schema.ts';
import { demoWallet, revertTo, sendToken, snapshot, startChainTestBed, withClient, type ChainTestBed } from '../../../test/chain.ts';
import { rootInviteCode } from '../../../test/harness.ts';
import { balanceOf, fundUser, tokens } from '../../../test/money.ts';
import { newAccount, signIn } from '../../../test/sign-in.ts';
import { auditLedger } from '../../ledger/index.ts';
import { chainContext, type ChainContext } from '../chain.ts';
import { approvedUnsigned, type WithdrawalRow } from './repo.ts';
import { confirmSentOnce, hotWalletOf, senderRound, signAndStore, startWithdrawalSender, type HotWallet } from './sender.ts';

// The withdrawal sender against a real Hardhat node (automine: each transaction in its own block;
// mineBlocks adds empty blocks for confirmations). The tests call the sender's round the way the
// worker does, and build "restarted" senders as new contexts (own viem client, no shared state).
let bed: ChainTestBed;
let ctx: ChainContext;
let hot: HotWallet;
let operatorA: User;
let operatorB: User;
const operatorAccounts = [newAccount(), newAccount()];

interface User {
  id: number;
  token: string;
  address: Address;
}

beforeAll(async () => {
  bed = await startChainTestBed({ OPERATOR_ADDRESSES: operatorAccounts.map((a) => a.address).join(',') });
  ctx = bed.context();
  hot = hotWalletOf(bed.t.settings.hotWalletPrivateKey);
  operatorA = await signedIn(operatorAccounts[0] as PrivateKeyAccount);
  operatorB = await signedIn(operatorAccounts[1] as PrivateKeyAccount);
});
afterAll(async () => {
  await bed?.close();
});

const deps = () => bed.t.app.deps;
const log = () => bed.t.app.log;
const round = (context: ChainContext = ctx, wallet: HotWallet = hot) => senderRound(deps(), context, wallet, log());

async function signedIn(account: PrivateKeyAccount): Promise<User> {
  const token = await signIn(bed.t.app, account, rootInviteCode);
  const info = await bed.t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: token } });
  return { token, id: info.json().data.id, address: account.address };
}

function post(user: User, url: string, payload: object) {
  return bed.t.app.inject({ method: 'POST', url, payload, headers: { authorization: user.token, lang: 'EN' } });
}

/** A user with `funds` NADI who asked to withdraw `amount`, approved by operator A. */
async function approvedWithdrawal(amount: string, funds = tokens(100)): Promise<{ user: User; id: number }> {
  const user = await signedIn(newAccount());
  await fundUser(bed.t.database.db, user.id, 'NADI', funds);
  const applied = await post(user, '/api/v1/withdraw/apply', { amount });
  expect(applied.statusCode).toBe(200);
  const id = applied.json().data.id as number;
  expect((await post(operatorA, '/api/v1/operator/withdraw/approve', { id })).statusCode).toBe(200);
  return { user, id };
}

async function withdrawal(id: number): Promise<WithdrawalRow> {
  const rows = await deps().db.select().from(withdrawals).where(eq(withdrawals.id, id));
  if (!rows[0]) throw new Error(`no withdrawal ${id}`);
  return rows[0];
}

async function listed(user: User, id: number) {
  const res = await bed.t.app.inject({ method: 'GET', url: '/api/v1/withdraw/list', headers: { authorization: user.token } });
  return res.json().data.list.find((r: { id: number }) => r.id === id);
}

function nonceOf(address: Address): Promise<number> {
  return bed.client.getTransactionCount({ address, blockTag: 'pending' });
}

function nadiOf(address: Address): Promise<bigint> {
  return bed.client.readContract({ address: bed.contracts.nadi, abi: nadiTokenAbi, functionName: 'balanceOf', args: [address] });
}

async function isOnNode(hash: string): Promise<boolean> {
  return bed.client.getTransaction({ hash: hash as Hash }).then(
    () => true,
    () => false,
  );
}

async function systemNadi(kind: 'fees' | 'custody'): Promise<bigint> {
  const rows = rowsOf<{ v: string }>(
    await bed.t.database.db.execute(
      sql`select (available + frozen)::text as v from ledger_accounts where user_id is null and kind = ${kind} and asset = 'NADI'`,
    ),
  );
  return BigInt(rows[0]?.v ?? '0');
}

/** Mines blocks and runs sender rounds until the withdrawal leaves status 1 (bounded). */
async function settle(id: number, context: ChainContext = ctx): Promise<WithdrawalRow> {
  for (let i = 0; i < 10; i += 1) {
    await round(context);
    const row = await withdrawal(id);
    if (row.status !== 1) return row;
    await mineBlocks(bed.chain.rpcUrl, 1);
  }
  throw new Error(`withdrawal ${id} did not settle`);
}

/** A hot wallet of its own (fresh key, 100 ETH for gas, no NADI), so a test can starve or drain it. */
async function freshHotWallet(): Promise<HotWallet & { key: `0x${string}` }> {
  const key = generatePrivateKey();
  const wallet = hotWalletOf(key);
  await rpcRequest(bed.chain.rpcUrl, 'hardhat_setBalance', [wallet.account.address, toHex(parseEther('100'))]);
  return { ...wallet, key };
}

describe('withdrawal sender', () => {
  it('sends an approved withdrawal once and completes it after 3 confirmations: user paid on chain, frozen cleared, fee booked', async () => {
    const { user, id } = await approvedWithdrawal('10.5', tokens(30));
    const nonceBefore = await nonceOf(hot.account.address);
    const feesBefore = await systemNadi('fees');
    const custodyBefore = await systemNadi('custody');

    const first = await round();
    expect(first.sent).toEqual({ signed: 1, broadcast: 1 });
    const sent = await withdrawal(id);
    expect(sent).toMatchObject({ status: 1, txNonce: nonceBefore, fromAddress: hot.address });
    expect(sent.broadcastAt).not.toBeNull();
    const tx = await bed.client.getTransaction({ hash: sent.txHash as Hash });
    expect(tx).toMatchObject({ from: hot.address, to: bed.contracts.nadi.toLowerCase(), nonce: nonceBefore });
    expect((await listed(user, id)).tx_hash).toBe(sent.txHash);

    // Automine put it in a block: 1 confirmation, then 2, then 3.
    await round();
    expect(await listed(user, id)).toMatchObject({ status: 1, confirmations: 1 });
    await mineBlocks(bed.chain.rpcUrl, 1);
    await round();
    expect(await listed(user, id)).toMatchObject({ status: 1, confirmations: 2 });
    expect(await balanceOf(bed.t.database.db, user.id, 'fund', 'NADI')).toEqual({ available: tokens(30) - tokens(105) / 10n, frozen: tokens(105) / 10n });
    await mineBlocks(bed.chain.rpcUrl, 1);
    const last = await round();
    expect(last.confirmed.completed).toBe(1);
    expect(await listed(user, id)).toMatchObject({ status: 2, confirmations: 3, tx_hash: sent.txHash, receive: '10', fee: '0.5' });

    expect(await nadiOf(user.address)).toBe(tokens(10));
    expect(await nonceOf(hot.account.address)).toBe(nonceBefore + 1);
    expect(await balanceOf(bed.t.database.db, user.id, 'fund', 'NADI')).toEqual({ available: tokens(30) - tokens(105) / 10n, frozen: 0n });
    expect((await systemNadi('fees')) - feesBefore).toBe(tokens(5) / 10n);
    expect((await systemNadi('custody')) - custodyBefore).toBe(tokens(10));
    // Another round changes nothing: completion is posted once.
    await mineBlocks(bed.chain.rpcUrl, 2);
    expect((await round()).confirmed).toEqual({ completed: 0, failed: 0, rebroadcast: 0 });
    const records = await bed.t.app.inject({ method: 'GET', url: '/api/v1/wallet/moneyLog?asset=NADI', headers: { authorization: user.token } });
    expect(records.json().data.list.map((r: { type: string; amount: string }) => [r.type, r.amount])).toEqual(
      expect.arrayContaining([
        ['withdraw', '-10'],
        ['withdraw_fee', '-0.5'],
      ]),
    );
  });

  it('two operators approving at once and two senders running at once send exactly one transaction', async () => {
    const user = await signedIn(newAccount());
    await fundUser(bed.t.database.db, user.id, 'NADI', tokens(20));
    const id = (await post(user, '/api/v1/withdraw/apply', { amount: '20' })).json().data.id;
    const approvals = await Promise.all([operatorA, operatorB].map((op) => post(op, '/api/v1/operator/withdraw/approve', { id })));
    expect(approvals.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const nonceBefore = await nonceOf(hot.account.address);

    const senders = await Promise.all([
      round(bed.context(), hotWalletOf(bed.t.settings.hotWalletPrivateKey)),
      round(bed.context(), hotWalletOf(bed.t.settings.hotWalletPrivateKey)),
    ]);
    expect(senders.map((s) => s.sent.signed).sort()).toEqual([0, 1]);
    expect(await settle(id)).toMatchObject({ status: 2 });
    expect(await nonceOf(hot.account.address)).toBe(nonceBefore + 1);
    expect(await nadiOf(user.address)).toBe(tokens(195) / 10n);
  });

  it('a sender killed after signing: the restarted sender broadcasts the same transaction, and only it', async () => {
    const { user, id } = await approvedWithdrawal('3');
    const nonceBefore = await nonceOf(hot.account.address);
    // The first sender signs and commits, then "dies" before broadcasting.
    const [row] = (await approvedUnsigned(deps().db, 10)).filter((r) => r.id === id);
    const signed = await signAndStore(deps(), ctx, hot, row as WithdrawalRow);
    expect(signed).not.toBeNull();
    const stored = await withdrawal(id);
    expect(stored).toMatchObject({ status: 1, txHash: signed?.txHash, txNonce: nonceBefore });
    expect(stored.broadcastAt).toBeNull();
    expect(await isOnNode(stored.txHash as string)).toBe(false);
    expect(await nonceOf(hot.account.address)).toBe(nonceBefore);

    // A new process: its own client and key object, nothing carried over but the database.
    const restarted = chainContext(bed.t.settings);
    const again = await round(restarted, hotWalletOf(bed.t.settings.hotWalletPrivateKey));
    expect(again.confirmed.rebroadcast).toBe(1);
    expect(again.sent.signed).toBe(0);
    expect(await isOnNode(stored.txHash as string)).toBe(true);
    const done = await settle(id, restarted);
    expect(done).toMatchObject({ status: 2, txHash: stored.txHash, txNonce: nonceBefore, signedTx: stored.signedTx });
    expect(await nonceOf(hot.account.address)).toBe(nonceBefore + 1);
    expect(await nadiOf(user.address)).toBe(tokens(25) / 10n);
  });

  it('RPC down while sending: nothing is signed; broadcast failing after signing is retried with the same bytes', async () => {
    const { user, id } = await approvedWithdrawal('4');
    const nonceBefore = await nonceOf(hot.account.address);
    const dead: ChainContext = { ...ctx, client: chainContext({ ...bed.t.settings, rpcUrl: 'http://127.0.0.1:9' }).client };
    await expect(round(dead)).rejects.toThrow();
    expect(await withdrawal(id)).toMatchObject({ status: 1, signedTx: null, txHash: null });

    const flaky = withClient(ctx, {
      sendRawTransaction: async () => {
        throw new Error('connection reset');
      },
    });
    const failed = await round(flaky);
    expect(failed.sent).toEqual({ signed: 1, broadcast: 0 });
    const stored = await withdrawal(id);
    expect(stored.broadcastAt).toBeNull();
    expect(await isOnNode(stored.txHash as string)).toBe(false);

    expect(await settle(id)).toMatchObject({ status: 2, txHash: stored.txHash });
    expect(await nonceOf(hot.account.address)).toBe(nonceBefore + 1);
    expect(await nadiOf(user.address)).toBe(tokens(35) / 10n);
  });

  it('a transfer that reverts on chain fails the withdrawal (status 3) and returns the funds', async () => {
    const wallet = await freshHotWallet();
    const { user, id } = await approvedWithdrawal('6', tokens(10));
    // Without NADI the node's estimate reverts: nothing is signed, the withdrawal waits.
    expect((await round(ctx, wallet)).sent).toEqual({ signed: 0, broadcast: 0 });
    expect(await withdrawal(id)).toMatchObject({ status: 1, signedTx: null });

    // Funded, it is signed; then the wallet is drained (through an allowance, not its own nonce)
    // before the transaction reaches the chain, so the mined transfer reverts.
    const drainer = demoUserAddresses[0] as Address;
    await sendToken(bed, 1, bed.contracts.nadi, wallet.account.address, tokens(6));
    const own = localWalletClient(bed.chain.rpcUrl, privateKeyToAccount(wallet.key));
    const approval = await own.writeContract({ address: bed.contracts.nadi, abi: nadiTokenAbi, functionName: 'approve', args: [drainer, tokens(6)] });
    await bed.client.waitForTransactionReceipt({ hash: approval });
    const [row] = (await approvedUnsigned(deps().db, 10)).filter((r) => r.id === id);
    const signed = await signAndStore(deps(), ctx, wallet, row as WithdrawalRow);
    expect(signed?.txNonce).toBe(1);
    const drain = await demoWallet(bed.chain.rpcUrl, 1).writeContract({
      address: bed.contracts.nadi,
      abi: nadiTokenAbi,
      functionName: 'transferFrom',
      args: [wallet.account.address, drainer, tokens(6)],
    });
    await bed.client.waitForTransactionReceipt({ hash: drain });

    const failed = await settle(id);
    expect(failed).toMatchObject({ status: 3, failReason: 'reverted', txHash: signed?.txHash });
    expect((await bed.client.getTransactionReceipt({ hash: signed?.txHash as Hash })).status).toBe('reverted');
    expect(await listed(user, id)).toMatchObject({ status: 3, fail_reason: 'reverted', reason: null, confirmations: 3 });
    expect(await nadiOf(user.address)).toBe(0n);
    expect(await balanceOf(bed.t.database.db, user.id, 'fund', 'NADI')).toEqual({ available: tokens(10), frozen: 0n });
    const returns = rowsOf<{ n: number }>(
      await bed.t.database.db.execute(
        sql`select count(*)::int as n from ledger_transfers where type = 'withdraw_return' and memo->>'withdrawal_id' = ${String(id)}`,
      ),
    );
    expect(returns[0]?.n).toBe(1);
    expect(await nonceOf(wallet.account.address)).toBe(2);
  });

  it('a stored transaction whose nonce another transaction of the hot wallet took fails safely, funds returned', async () => {
    const { user, id } = await approvedWithdrawal('2', tokens(5));
    const [row] = (await approvedUnsigned(deps().db, 10)).filter((r) => r.id === id);
    const signed = await signAndStore(deps(), ctx, hot, row as WithdrawalRow);
    // Someone else uses the hot wallet (the node's unlocked account #0) before the broadcast.
    const other = await rpcRequest<Hash>(bed.chain.rpcUrl, 'eth_sendTransaction', [{ from: hot.account.address, to: hot.account.address, value: '0x0' }]);
    const otherTx = await bed.client.getTransaction({ hash: other });
    expect(otherTx.nonce).toBe(signed?.txNonce);
    // Not deep enough yet: the sender keeps trying its own bytes (refused) and waits.
    await confirmSentOnce(deps(), ctx, log());
    expect((await withdrawal(id)).status).toBe(1);
    const failed = await settle(id);
    expect(failed).toMatchObject({ status: 3, failReason: 'nonce_replaced' });
    expect(await isOnNode(signed?.txHash as string)).toBe(false);
    expect(await balanceOf(bed.t.database.db, user.id, 'fund', 'NADI')).toEqual({ available: tokens(5), frozen: 0n });
    // The next withdrawal takes the next free nonce.
    const next = await approvedWithdrawal('1.5');
    const nonce = await nonceOf(hot.account.address);
    expect(await settle(next.id)).toMatchObject({ status: 2, txNonce: nonce });
  });

  it('the worker loop sends and completes on its own, and after stop() sends nothing more', async () => {
    const { user, id } = await approvedWithdrawal('7');
    const pollMs = 20;
    // Every round starts by reading the context's chain id (confirmSentOnce), synchronously when
    // its timer fires: counting the reads shows whether the worker did anything after stop().
    let chainIdReads = 0;
    const counted = new Proxy(
      { ...bed.context(), pollMs },
      {
        get(target, key, receiver) {
          if (key === 'chainId') chainIdReads += 1;
          return Reflect.get(target, key, receiver);
        },
      },
    );
    const worker = startWithdrawalSender(deps(), counted, log());
    try {
      await expect.poll(async () => (await withdrawal(id)).txHash, { timeout: 20_000, interval: 50 }).not.toBeNull();
      await mineBlocks(bed.chain.rpcUrl, 3);
      await expect.poll(async () => (await withdrawal(id)).status, { timeout: 20_000, interval: 50 }).toBe(2);
    } finally {
      await worker.stop();
    }
    expect(await nadiOf(user.address)).toBe(tokens(65) / 10n);
    const readsAtStop = chainIdReads;
    const later = await approvedWithdrawal('1');
    // A round still scheduled at stop() was due within pollMs of it; timers fire in the order they
    // are due, so by the time this one fires, such a round would have started and been counted.
    await new Promise((resolve) => setTimeout(resolve, pollMs + 1));
    expect(chainIdReads).toBe(readsAtStop);
    expect(await withdrawal(later.id)).toMatchObject({ status: 1, signedTx: null });
    expect((await round()).sent.signed).toBe(1);
    expect(await settle(later.id)).toMatchObject({ status: 2 });
  });

  it('one hot wallet transaction per withdrawal sent from it, and the ledger audit passes', async () => {
    // A hot wallet of its own, so the count is this test's whatever ran before it.
    const wallet = await freshHotWallet();
    await sendToken(bed, 1, bed.contracts.nadi, wallet.account.address, tokens(10));
    const nonceAtStart = await nonceOf(wallet.account.address);
    const completed = await approvedWithdrawal('2');
    expect((await round(ctx, wallet)).sent).toEqual({ signed: 1, broadcast: 1 });
    expect(await settle(completed.id)).toMatchObject({ status: 2 });
    // The second one's nonce is taken by another transaction of the wallet before its broadcast.
    const replaced = await approvedWithdrawal('3');
    const [row] = (await approvedUnsigned(deps().db, 10)).filter((r) => r.id === replaced.id);
    expect(await signAndStore(deps(), ctx, wallet, row as WithdrawalRow)).not.toBeNull();
    const own = localWalletClient(bed.chain.rpcUrl, privateKeyToAccount(wallet.key));
    await bed.client.waitForTransactionReceipt({ hash: await own.sendTransaction({ to: wallet.account.address, value: 0n }) });
    expect(await settle(replaced.id)).toMatchObject({ status: 3, failReason: 'nonce_replaced' });

    const sentRows = rowsOf<{ n: number; completed: number }>(
      await bed.t.database.db.execute(
        sql`select count(*)::int as n, count(*) filter (where status = 2)::int as completed from withdrawals where from_address = ${wallet.address}`,
      ),
    );
    expect(sentRows[0]).toEqual({ n: 2, completed: 1 });
    // The completed withdrawal's transfer and the foreign transaction: nothing else left the wallet.
    expect(await nonceOf(wallet.account.address)).toBe(nonceAtStart + 2);
    expect((await auditLedger(bed.t.database.db)).problems).toEqual([]);
  });

  it('a local chain started afresh under the same database: the nonce gap is filled and withdrawals go on', async () => {
    const fresh = await snapshot(bed);
    const earlier = await approvedWithdrawal('2');
    expect(await settle(earlier.id)).toMatchObject({ status: 2 });
    const nonceAfter = await nonceOf(hot.account.address);
    // The chain forgets the earlier transaction; the database still remembers its nonce.
    await revertTo(bed, fresh);
    expect(await nonceOf(hot.account.address)).toBe(nonceAfter - 1);

    const later = await approvedWithdrawal('3');
    const done = await settle(later.id);
    expect(done).toMatchObject({ status: 2, txNonce: nonceAfter });
    expect(await nonceOf(hot.account.address)).toBe(nonceAfter + 1);
    const filler = await bed.client.getTransaction({
      blockNumber: (await bed.client.getTransactionReceipt({ hash: done.txHash as Hash })).blockNumber - 1n,
      index: 0,
    });
    expect(filler).toMatchObject({ from: hot.address, to: hot.address, value: 0n, nonce: nonceAfter - 1 });
    expect(await nadiOf(later.user.address)).toBe(tokens(25) / 10n);
    expect((await auditLedger(bed.t.database.db)).problems).toEqual([]);
  });
});
