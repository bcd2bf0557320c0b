import { afterAll, beforeAll, expect, it } from 'vitest';
import { deployContractWallet } from '@nadi/chain/deploy';
import { startLocalChain, type LocalChain } from '@nadi/chain/local-chain';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { fetchMessage, newAccount, postLogin } from '../../test/sign-in.ts';

// A smart-contract wallet (ERC-1271) signs in through the real local chain: its owner signs, and the
// server asks the wallet contract whether the signature is valid.
let chain: LocalChain;
let t: TestApp;
beforeAll(async () => {
  chain = await startLocalChain();
  t = await createTestApp({ RPC_URL: chain.rpcUrl });
});
afterAll(async () => {
  await t?.close();
  await chain?.stop();
});

it('accepts a contract wallet whose owner signed, and refuses one signed by a stranger', async () => {
  const owner = newAccount();
  const stranger = newAccount();
  const wallet = await deployContractWallet(chain.rpcUrl, owner.address);

  const forged = await fetchMessage(t.app, wallet);
  const refused = await postLogin(t.app, {
    address: wallet,
    message: forged,
    sign_message: await stranger.signMessage({ message: forged }),
    code: rootInviteCode,
  });
  expect(refused.statusCode).toBe(400);
  expect(refused.json().reason).toBe('SIWE_SIGNATURE_INVALID');

  const message = await fetchMessage(t.app, wallet);
  const accepted = await postLogin(t.app, { address: wallet, message, sign_message: await owner.signMessage({ message }), code: rootInviteCode });
  expect(accepted.statusCode).toBe(200);
  const info = await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: accepted.json().data.token } });
  expect(info.json().data.wallet_address).toBe(wallet.toLowerCase());
});
