import type { Browser, Page } from 'playwright-core';
import { and, eq } from 'drizzle-orm';
import { toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hardhatAccounts } from '@nadi/chain/demo-accounts';
import { deployProofPublisher } from '@nadi/chain/deploy';
import { readNode, writeNode, nodeBytes } from '@nadi/proof/tree';
import { proofTreeChunks } from '../apps/server/src/modules/transparency/schema.ts';
import { filled, preset, text } from './support/app.ts';
import { apiCall, apiData, operatorAddress, rpc } from './support/api.ts';
import { installWallet, launchBrowser, phoneContext, screenshot } from './support/browser.ts';
import { startOwnServer, type OwnServer } from './support/own-server.ts';

// The proof of reserves end to end (docs/transparency.md), on a server of its own: the shared
// stack's 600 s epochs would keep an epoch's income out of reach, and the test tampers with the
// server's stored tree, which it reaches only in-process. Epochs of 75 s: an operator may take a
// snapshot at most once a minute, the epochs' own snapshots included, so a longer epoch leaves a
// window for it. The phone is Hardhat account #16.
const account = '0x2546BcD3c84621e976D8185a91A922aE77ECEc30';
const rootCode = 'PROOF2026';
const epochSeconds = 75;

let server: OwnServer | undefined;
let browser: Browser | undefined;
let baseUrl = '';

beforeAll(async () => {
  // Its own ProofPublisher, deployed by the phone's account and owned by the hot wallet: the shared
  // stack publishes its epochs' snapshots on its own contract under the same ids.
  const proofPublisher = await deployProofPublisher(inject('rpcUrl'), hardhatAccounts[0]!, account);
  server = await startOwnServer({ rootCode, epochSeconds, name: 'transparency', proofPublisher });
  baseUrl = server.baseUrl;
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface Summary {
  emission: { epoch: number }[];
  latest: { id: number; epoch: number | null; publication: { state: string } } | null;
  contract: { chain_id: number; address: string } | null;
}

const get = <T>(token: string | null, path: string) => apiData<T>(token, 'GET', path, undefined, baseUrl);
const post = <T>(token: string, path: string, body: unknown) => apiData<T>(token, 'POST', path, body, baseUrl);

/** Signs `address` in on this server through the API (the node signs for its unlocked account). */
async function tokenOn(address: string): Promise<string> {
  const { message } = await get<{ message: string }>('', `/api/v1/auth/loginMessage?address=${address}`);
  const signature = await rpc('personal_sign', [toHex(message), address]);
  return (await post<{ token: string }>('', '/api/v1/auth/login', { address, message, sign_message: signature, code: '' })).token;
}

/**
 * Publishes a snapshot's roots on chain through the operator route (docs/transparency.md,
 * "Publication") and waits until its transaction is mined. The server marks it published only once
 * its publication job has seen the confirmations, and this server runs no chain workers; the phone
 * reads the contract itself, so the mined transaction is what counts.
 */
async function publish(operator: string, snapshotId: number): Promise<string> {
  const { publication } = await post<{ publication: { tx_hash: string | null } }>(operator, '/api/v1/operator/transparency/publish', { id: snapshotId });
  const hash = publication.tx_hash;
  if (!hash) throw new Error(`snapshot ${snapshotId} was not sent: ${JSON.stringify(publication)}`);
  await expect.poll(async () => ((await rpc('eth_getTransactionReceipt', [hash])) as { status?: string } | null)?.status, { timeout: 60_000 }).toBe('0x1');
  return hash;
}

/** The operator's snapshot, taken as soon as the once-a-minute limit allows (the epochs' snapshots count too). */
async function operatorSnapshot(operator: string): Promise<number> {
  let id = 0;
  await expect
    .poll(
      async () => {
        const answer = await apiCall(baseUrl, 'POST', '/api/v1/operator/transparency/snapshot', { token: operator, body: {} });
        if (answer.body.code === 200) id = (answer.body.data as { id: number }).id;
        else expect(answer.body.reason).toBe('SNAPSHOT_TOO_SOON');
        return id;
      },
      { timeout: 90_000, interval: 2_000 },
    )
    .toBeGreaterThan(0);
  return id;
}

/** The newest snapshot once it is newer than `afterId`. */
async function latestAfter(afterId: number): Promise<NonNullable<Summary['latest']>> {
  let latest: Summary['latest'] = null;
  await expect
    .poll(async () => (latest = (await get<Summary>(null, '/api/v1/transparency/summary')).latest)?.id ?? 0, {
      timeout: (epochSeconds + 30) * 1000,
      interval: 1_000,
    })
    .toBeGreaterThan(afterId);
  return latest!;
}

async function phone(lang: string): Promise<Page> {
  if (!browser) throw new Error('no browser');
  const context = await phoneContext(browser, baseUrl);
  await preset(context, { lang });
  await installWallet(context, account);
  return context.newPage();
}

async function openTransparency(page: Page): Promise<void> {
  await page.goto('/transparency');
  await page.getByTestId('transparency').waitFor({ timeout: 20_000 });
}

interface Verdict {
  ok: string | null;
  failure: string | null;
  explain: string;
  /** What was checked: "Snapshot #n" or the epoch's income. */
  subject: string;
}

/** Presses a verify button and waits for the verdict; answers whether it passed and why not. */
async function verify(page: Page, button: 'verify-balance' | 'verify-income'): Promise<Verdict> {
  await page.getByTestId(button).click();
  const result = page.getByTestId('verify-result');
  await result.waitFor({ timeout: 30_000 });
  return {
    ok: await result.getAttribute('data-ok'),
    failure: await result.getAttribute('data-failure'),
    explain: (await page.getByTestId('verify-explain').textContent()) ?? '',
    subject: (await page.getByTestId('verify-subject').textContent()) ?? '',
  };
}

/**
 * Verifies the balance in the latest snapshot, published first when the server publishes: an
 * epoch's own snapshot may land between the two, so the snapshot checked is read from the screen.
 */
async function verifyLatestBalance(page: Page, prepare: (snapshotId: number) => Promise<unknown>): Promise<{ verdict: Verdict; snapshotId: number }> {
  for (let attempt = 1; ; attempt += 1) {
    const latest = (await get<Summary>(null, '/api/v1/transparency/summary')).latest!;
    await prepare(latest.id);
    await openTransparency(page);
    const verdict = await verify(page, 'verify-balance');
    if (verdict.subject.includes(`#${latest.id}`) || attempt === 3) return { verdict, snapshotId: latest.id };
  }
}

/** Lowers my first leaf's NADI in a stored tree: what an operator understating a debt would do. */
async function lowerMyLeaf(scope: string, userId: number): Promise<void> {
  if (!server) throw new Error('no server');
  const { db } = server;
  const chunks = await db.select().from(proofTreeChunks).where(eq(proofTreeChunks.scope, scope));
  const dims = 2;
  for (const chunk of chunks) {
    const owners = new DataView(chunk.owners.buffer, chunk.owners.byteOffset, chunk.owners.byteLength);
    const count = chunk.leaves.length / nodeBytes(dims);
    for (let i = 0; i < count; i += 1) {
      if (owners.getUint32(i * 5) !== userId) continue;
      const leaves = new Uint8Array(chunk.leaves);
      const leaf = readNode(leaves, i, dims);
      expect(leaf.sums[0]).toBeGreaterThan(1n);
      writeNode(leaves, i, { hash: leaf.hash, sums: [leaf.sums[0]! / 2n, leaf.sums[1]!] });
      await db
        .update(proofTreeChunks)
        .set({ leaves })
        .where(and(eq(proofTreeChunks.scope, scope), eq(proofTreeChunks.chunk, chunk.chunk)));
      return;
    }
  }
  throw new Error(`no leaf of user ${userId} in ${scope}`);
}

/** Shoots the verdict from its top, under the top bar. */
async function shootVerdict(page: Page, name: string): Promise<void> {
  await page.getByTestId('verify-result').evaluate((element) => window.scrollTo(0, element.getBoundingClientRect().top + window.scrollY - 64));
  await screenshot(page, name);
}

/** The steps of the verdict on screen that did not hold, by their locale key. */
function failedSteps(page: Page): Promise<(string | null)[]> {
  return page.locator('[data-testid="verify-steps"] li[data-ok="false"]').evaluateAll((items) => items.map((item) => item.getAttribute('data-step')));
}

describe('proof of reserves', () => {
  it('shows the public figures signed out; signed in, the user verifies their balance and income, and sees a tampered tree caught', async () => {
    const page = await phone('EN');
    // Signed out: the public figures, and the way to sign in instead of the checks.
    await openTransparency(page);
    await expect.poll(() => page.getByTestId('transparency-supply').textContent()).toContain('1,000,000,000 NADI');
    await page.getByTestId('transparency-emission').waitFor();
    await page.getByTestId('transparency-pools').waitFor();
    expect(await page.getByTestId('verify-balance').count()).toBe(0);
    await screenshot(page, '95-transparency-en-signed-out');

    // Signing in from the screen keeps the user on it: a new account, with its invite code.
    await page.getByTestId('verify-sign-in').click();
    await page.getByRole('button', { name: /E2E Wallet/ }).click();
    await page.locator('#invite-code').fill(rootCode);
    await page.getByRole('button', { name: text('EN', 'auth.inviteSubmit') }).click();
    await page.getByTestId('verify-balance').waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).pathname).toBe('/transparency');
    const token = await page.evaluate(() => (JSON.parse(sessionStorage.getItem('nadi.session') ?? '{}') as { token?: string }).token ?? '');
    const me = await get<{ id: number }>(token, '/api/v1/user/info');
    // Today's sign-in award: NADI in the fund account, so the user is owed something at once.
    await post(token, '/api/v1/sign/operate', undefined);

    // The operator takes a snapshot and publishes it on this server's ProofPublisher.
    const operator = await tokenOn(operatorAddress);
    const taken = await operatorSnapshot(operator);
    expect((await get<Summary>(null, '/api/v1/transparency/summary')).contract).not.toBeNull();
    const prepare = (snapshotId: number) => publish(operator, snapshotId);
    const { verdict: balance, snapshotId: checked } = await verifyLatestBalance(page, prepare);
    expect(checked).toBeGreaterThanOrEqual(taken);
    expect(balance.subject).toContain(`#${checked}`);
    expect(balance).toMatchObject({ ok: 'true', failure: '', explain: text('EN', 'transparency.result.okExplain.balance') });
    expect(await page.getByTestId('verify-steps').locator('li').first().getAttribute('data-step')).toBe('userKey');
    expect(await failedSteps(page)).toEqual([]);
    // The last step names the publishing transaction, as its receipt on chain shows it.
    expect(await page.getByTestId('verify-steps').locator('li').last().getAttribute('data-step')).toBe('publishedInTx');
    // The reserve addresses' signatures are checked in this browser on their own, a lazily loaded
    // check (the own server knows no payment gateway: its hot wallet's, signed by the server at the
    // capture).
    await expect
      .poll(() => page.getByTestId('reserve-verdict').evaluateAll((items) => items.map((item) => item.getAttribute('data-verdict'))), { timeout: 15_000 })
      .toEqual(['verified']);
    await shootVerdict(page, '95-transparency-en-verify-balance');

    // An epoch in which the user earned (the trial miner's income) settles: its rewards tree, and
    // the snapshot taken at its end that carries its root.
    let epoch = -1;
    await expect
      .poll(
        async () => {
          const settled = (await get<Summary>(null, '/api/v1/transparency/summary')).emission.map((point) => point.epoch);
          for (const e of settled.reverse()) {
            if ((await apiCall(baseUrl, 'GET', `/api/v1/transparency/proof/income?epoch=${e}`, { token })).body.code === 200) return (epoch = e);
          }
          return -1;
        },
        { timeout: (epochSeconds * 2 + 40) * 1000, interval: 3_000 },
      )
      .toBeGreaterThanOrEqual(0);
    let carrier = 0;
    await expect
      .poll(
        async () => {
          const { list } = await get<{ list: { id: number; epoch: number | null; trigger: string }[] }>(
            null,
            '/api/v1/transparency/snapshots?page=1&page_size=20',
          );
          return (carrier = list.find((s) => s.trigger === 'epoch' && s.epoch === epoch)?.id ?? 0);
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBeGreaterThan(0);
    await prepare(carrier);
    await openTransparency(page);
    await page.getByTestId('verify-epoch').selectOption(String(epoch));
    const income = await verify(page, 'verify-income');
    expect(income.subject).toBe(filled('EN', 'transparency.result.subjectIncome', { epoch }));
    expect(income).toMatchObject({ ok: 'true', failure: '', explain: text('EN', 'transparency.result.okExplain.income') });
    expect(await failedSteps(page)).toEqual([]);
    expect(await page.getByTestId('verify-steps').textContent()).toContain(text('EN', 'transparency.kind.mining'));
    await shootVerdict(page, '95-transparency-en-verify-income');

    // A snapshot nobody has read the tree of yet (published, or not) gets my leaf lowered in the
    // database, as an operator understating what it owes me would: the phone's own check finds that
    // the leaf no longer leads to the root and that my parts no longer add up to my balance.
    let tampered: Verdict | undefined;
    for (let attempt = 1, after = checked; attempt <= 3 && !tampered; attempt += 1) {
      const target = await latestAfter(after);
      await lowerMyLeaf(`snapshot:${target.id}`, me.id);
      await openTransparency(page);
      const verdict = await verify(page, 'verify-balance');
      // An epoch's snapshot may have landed meanwhile: then tamper that one.
      if (verdict.subject.includes(`#${target.id}`)) tampered = verdict;
      after = target.id;
    }
    expect(tampered).toMatchObject({ ok: 'false', failure: 'root_mismatch', explain: text('EN', 'transparency.failure.root_mismatch') });
    expect(await failedSteps(page)).toEqual(expect.arrayContaining(['rootMismatch', 'totalDiffers']));
    await shootVerdict(page, '95-transparency-en-verify-tampered');

    // The same checks in Traditional Chinese, in the same tab (the session stays): the epoch's income
    // still verifies, and the tampered balance fails with its reason in the user's language.
    await page.evaluate(() => localStorage.setItem('nadi.lang', 'TW'));
    await openTransparency(page);
    await expect.poll(() => page.getByTestId('verify-balance').textContent()).toBe(text('TW', 'transparency.verify.balance'));
    await screenshot(page, '95-transparency-tw-signed-in');
    await page.getByTestId('verify-epoch').selectOption(String(epoch));
    expect(await verify(page, 'verify-income')).toMatchObject({ ok: 'true', explain: text('TW', 'transparency.result.okExplain.income') });
    await shootVerdict(page, '95-transparency-tw-verify-income');
    await openTransparency(page);
    expect(await verify(page, 'verify-balance')).toMatchObject({ ok: 'false', explain: text('TW', 'transparency.failure.root_mismatch') });
    await shootVerdict(page, '95-transparency-tw-verify-tampered');
  }, 420_000);
});
