import { eq } from 'drizzle-orm';
import { getAddress, parseEther, verifyMessage, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nadiTokenAbi, paymentGatewayAbi } from '@nadi/chain/artifacts';
import { localWalletClient } from '@nadi/chain/clients';
import { deployerAddress, hardhatDevPrivateKeys } from '@nadi/chain/demo-accounts';
import { mineBlocks } from '@nadi/chain/local-chain';
import { messageNames, reserveMessage } from '@nadi/proof/reserves';
import { sendToken, startChainTestBed, type ChainTestBed } from '../../test/chain.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { insertProofSnapshot } from '../../test/proof-snapshot.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';
import { captureReserves, reservePlatform } from './reserves.ts';
import { proofReserveAddresses, proofSnapshotReserves } from './schema.ts';

// Reserves (docs/transparency.md "Reserves") against a Hardhat node: the hot wallet (#0, which also
// owns the gateway here) signs its own proofs at capture; an admin registers cold addresses with
// theirs; balances are read at the block CHAIN_CONFIRMATIONS (3) deep.
let bed: ChainTestBed;
let admin: string;
const adminAccount = newAccount();
const platform = 'localhost:8080';

beforeAll(async () => {
  bed = await startChainTestBed({ OPERATOR_ADDRESSES: adminAccount.address });
  admin = await signIn(bed.t.app, adminAccount, rootInviteCode);
});
afterAll(async () => {
  await bed?.close();
});

const db = () => bed.t.database.db;

async function newSnapshot(database = db()): Promise<number> {
  return (await insertProofSnapshot(database, { trigger: 'operator', epoch: null, liabilities: { leaves: [{ userId: 1, sums: [1n, 2n] }] } })).id;
}

function register(t: TestApp, token: string, body: object, lang = 'EN') {
  return t.app.inject({ method: 'POST', url: '/api/v1/operator/transparency/reserve', payload: body, headers: { authorization: token, lang } });
}

async function signedBody(account: PrivateKeyAccount, address: Address = account.address, label = 'Cold wallet') {
  const message = reserveMessage({ platform, address });
  return { address, label, message, signature: await account.signMessage({ message }) };
}

const roleOrder = ['hot_wallet', 'payment_gateway', 'treasury', 'cold'];

/** A snapshot's reserve rows, by role as the capture lists them. */
async function stored(snapshotId: number, database = db()) {
  const rows = await database.select().from(proofSnapshotReserves).where(eq(proofSnapshotReserves.snapshotId, snapshotId));
  return rows.sort((a, b) => roleOrder.indexOf(a.role) - roleOrder.indexOf(b.role) || a.address.localeCompare(b.address));
}

function balanceAt(token: Address, owner: string, blockNumber: bigint) {
  return bed.client.readContract({ address: token, abi: nadiTokenAbi, functionName: 'balanceOf', args: [getAddress(owner)], blockNumber });
}

describe('captureReserves', () => {
  it('without a chain configured answers block 0 and zero reserves, and writes nothing', async () => {
    const t = await createTestApp();
    try {
      const id = await newSnapshot(t.database.db);
      expect(await captureReserves(t.app.deps, id)).toEqual({ blockNumber: 0n, reserves: { NADI: 0n, USDT: 0n } });
      expect(await stored(id, t.database.db)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('reads each proven address at the confirmed block, with a signature that names it and the platform', async () => {
    expect(reservePlatform(bed.t.settings)).toBe(platform);
    const cold = newAccount();
    await sendToken(bed, 1, bed.contracts.nadi, cold.address, parseEther('1234.5'));
    await sendToken(bed, 1, bed.contracts.usdt, cold.address, parseEther('77'));
    await sendToken(bed, 2, bed.contracts.nadi, bed.contracts.paymentGateway, parseEther('10'));
    const res = await register(bed.t, admin, await signedBody(cold));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ address: cold.address, label: 'Cold wallet' });

    // Two blocks on top: the transfers are CHAIN_CONFIRMATIONS deep, where the capture reads.
    await mineBlocks(bed.chain.rpcUrl, 2);
    const id = await newSnapshot();
    const head = await bed.client.getBlockNumber({ cacheTime: 0 });
    const captured = await captureReserves(bed.t.app.deps, id);
    expect(captured.blockNumber).toBe(head - 2n);
    const rows = await stored(id);
    expect(rows.map((r) => [r.role, r.address, r.signer])).toEqual([
      ['hot_wallet', deployerAddress, deployerAddress],
      ['payment_gateway', bed.contracts.paymentGateway, deployerAddress],
      ['cold', cold.address, cold.address],
    ]);
    for (const r of rows) {
      expect(messageNames(r.message, { platform, address: r.address }), r.role).toBe(true);
      expect(await verifyMessage({ address: r.signer as Address, message: r.message, signature: r.signature as Hex }), r.role).toBe(true);
      expect(r.nadi, r.role).toBe(await balanceAt(bed.contracts.nadi, r.address, captured.blockNumber));
      expect(r.usdt, r.role).toBe(await balanceAt(bed.contracts.usdt, r.address, captured.blockNumber));
    }
    expect(rows.find((r) => r.role === 'cold')).toMatchObject({ nadi: parseEther('1234.5'), usdt: parseEther('77') });
    expect(captured.reserves).toEqual({ NADI: rows.reduce((a, r) => a + r.nadi, 0n), USDT: rows.reduce((a, r) => a + r.usdt, 0n) });
    // What arrives later changes nothing the snapshot says.
    await sendToken(bed, 1, bed.contracts.nadi, cold.address, parseEther('1'));
    expect((await stored(id)).find((r) => r.role === 'cold')?.nadi).toBe(parseEther('1234.5'));
  });

  it('leaves out a registered address whose signature no longer verifies', async () => {
    const cold = newAccount();
    expect((await register(bed.t, admin, await signedBody(cold, cold.address, 'Tampered'))).statusCode).toBe(200);
    const other = await newAccount().signMessage({ message: reserveMessage({ platform, address: cold.address }) });
    await db().update(proofReserveAddresses).set({ signature: other }).where(eq(proofReserveAddresses.address, cold.address));
    const id = await newSnapshot();
    await captureReserves(bed.t.app.deps, id);
    expect((await stored(id)).map((r) => r.address)).not.toContain(cold.address);
  });
});

describe('operatorReserves', () => {
  it('refuses a signature of another key, a message naming another address or platform, and the hot wallet; stores nothing', async () => {
    const cold = newAccount();
    const before = await db().select().from(proofReserveAddresses);
    const forged = { ...(await signedBody(cold)), signature: await newAccount().signMessage({ message: reserveMessage({ platform, address: cold.address }) }) };
    const bad = await register(bed.t, admin, forged, 'TW');
    expect([bad.statusCode, bad.json().reason, bad.json().msg]).toEqual([400, 'RESERVE_SIGNATURE_INVALID', '此簽名無法證明該地址簽署了這則訊息。']);

    const otherPlatform = reserveMessage({ platform: 'evil.example', address: cold.address });
    const wrongPlatform = await register(bed.t, admin, {
      ...(await signedBody(cold)),
      message: otherPlatform,
      signature: await cold.signMessage({ message: otherPlatform }),
    });
    expect([wrongPlatform.statusCode, wrongPlatform.json().reason]).toEqual([400, 'RESERVE_MESSAGE_INVALID']);
    const otherAddress = reserveMessage({ platform, address: newAccount().address });
    const wrongAddress = await register(bed.t, admin, {
      ...(await signedBody(cold)),
      message: otherAddress,
      signature: await cold.signMessage({ message: otherAddress }),
    });
    expect([wrongAddress.statusCode, wrongAddress.json().reason]).toEqual([400, 'RESERVE_MESSAGE_INVALID']);

    const hot = privateKeyToAccount(bed.t.settings.hotWalletPrivateKey);
    const hotRes = await register(bed.t, admin, await signedBody(hot, hot.address, 'Hot'));
    expect([hotRes.statusCode, hotRes.json().reason]).toEqual([400, 'BAD_REQUEST']);

    const user = await signIn(bed.t.app, newAccount(), rootInviteCode);
    const forbidden = await register(bed.t, user, await signedBody(cold));
    expect([forbidden.statusCode, forbidden.json().reason]).toEqual([403, 'FORBIDDEN']);
    expect(await db().select().from(proofReserveAddresses)).toEqual(before);
  });

  it('audits a registration, and a second one replaces the label and signature', async () => {
    const cold = newAccount();
    expect((await register(bed.t, admin, await signedBody(cold, cold.address, 'Vault A'))).statusCode).toBe(200);
    expect((await register(bed.t, admin, await signedBody(cold, cold.address, 'Vault B'))).statusCode).toBe(200);
    const rows = await db().select().from(proofReserveAddresses).where(eq(proofReserveAddresses.address, cold.address));
    expect(rows).toMatchObject([{ role: 'cold', label: 'Vault B', signer: cold.address }]);
    const audit = await bed.t.app.inject({
      method: 'GET',
      url: `/api/v1/operator/audit?action=transparency.reserve&target_id=${cold.address}`,
      headers: { authorization: admin },
    });
    expect(audit.json().data.list).toMatchObject([
      { action: 'transparency.reserve.register', before: { label: 'Vault A' }, after: { role: 'cold', label: 'Vault B' } },
      { action: 'transparency.reserve.register', before: null, after: { role: 'cold', label: 'Vault A', signer: cold.address } },
    ]);
  });

  it('takes the gateway’s owner’s signature for the gateway, and names the gateway’s treasury as such', async () => {
    // A server whose hot wallet does not own the gateway (production's usual case): it cannot sign
    // for it, so the gateway counts only once its owner's signature is registered.
    const hotKey = generatePrivateKey();
    const t = await createTestApp({
      OPERATOR_ADDRESSES: adminAccount.address,
      RPC_URL: bed.chain.rpcUrl,
      CHAIN_ID: '31337',
      NADI_ADDRESS: bed.contracts.nadi,
      USDT_ADDRESS: bed.contracts.usdt,
      PAYMENT_GATEWAY_ADDRESS: bed.contracts.paymentGateway,
      HOT_WALLET_PRIVATE_KEY: hotKey,
    });
    try {
      const token = await signIn(t.app, adminAccount, rootInviteCode);
      const first = await newSnapshot(t.database.db);
      await captureReserves(t.app.deps, first);
      expect((await stored(first, t.database.db)).map((r) => r.role)).toEqual(['hot_wallet']);

      const owner = privateKeyToAccount(hardhatDevPrivateKeys[0] as Hex);
      const notOwner = await register(t, token, await signedBody(newAccount(), bed.contracts.paymentGateway, 'Gateway'));
      expect(notOwner.json().reason).toBe('RESERVE_SIGNATURE_INVALID');
      expect((await register(t, token, await signedBody(owner, bed.contracts.paymentGateway, 'Gateway'))).statusCode).toBe(200);

      const treasury = newAccount();
      const setTreasury = await localWalletClient(bed.chain.rpcUrl, deployerAddress).writeContract({
        address: bed.contracts.paymentGateway,
        abi: paymentGatewayAbi,
        functionName: 'setTreasury',
        args: [treasury.address],
      });
      await bed.client.waitForTransactionReceipt({ hash: setTreasury });
      expect((await register(t, token, await signedBody(treasury, treasury.address, 'Treasury'))).statusCode).toBe(200);

      const second = await newSnapshot(t.database.db);
      await captureReserves(t.app.deps, second);
      expect((await stored(second, t.database.db)).map((r) => [r.role, r.address, r.signer])).toEqual([
        ['hot_wallet', privateKeyToAccount(hotKey).address, privateKeyToAccount(hotKey).address],
        ['payment_gateway', bed.contracts.paymentGateway, owner.address],
        ['treasury', treasury.address, treasury.address],
      ]);
    } finally {
      await t.close();
      const reset = await localWalletClient(bed.chain.rpcUrl, deployerAddress).writeContract({
        address: bed.contracts.paymentGateway,
        abi: paymentGatewayAbi,
        functionName: 'setTreasury',
        args: ['0x0000000000000000000000000000000000000000'],
      });
      await bed.client.waitForTransactionReceipt({ hash: reset });
    }
  });
});
