// Test helpers for the chain workers: a Hardhat node with the project's contracts, an app on it,
// users, and token transfers signed with the local chain's public test keys.
import { encodeFunctionData, type Address, type Hash, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { nadiTokenAbi } from '@nadi/chain/artifacts';
import { localWalletClient, publicClientFor } from '@nadi/chain/clients';
import { hardhatDevPrivateKeys } from '@nadi/chain/demo-accounts';
import { deployLocalContracts, type LocalContracts } from '@nadi/chain/deploy';
import { rpcRequest, startLocalChain, type LocalChain } from '@nadi/chain/local-chain';
import { chainContext, type ChainContext } from '../modules/onchain/index.ts';
import { createTestApp, rootInviteCode, type TestApp } from './harness.ts';
import { newAccount, signIn } from './sign-in.ts';

export interface ChainTestBed {
  chain: LocalChain;
  contracts: LocalContracts;
  t: TestApp;
  client: ReturnType<typeof publicClientFor>;
  /** A fresh context (own viem client) like the one a server process builds. */
  context(): ChainContext;
  close(): Promise<void>;
}

export async function startChainTestBed(env: Record<string, string> = {}): Promise<ChainTestBed> {
  const chain = await startLocalChain();
  try {
    const contracts = await deployLocalContracts(chain.rpcUrl);
    const t = await createTestApp({
      RPC_URL: chain.rpcUrl,
      CHAIN_ID: String(contracts.chainId),
      NADI_ADDRESS: contracts.nadi,
      USDT_ADDRESS: contracts.usdt,
      PAYMENT_GATEWAY_ADDRESS: contracts.paymentGateway,
      PROOF_PUBLISHER_ADDRESS: contracts.proofPublisher,
      ...env,
    });
    return {
      chain,
      contracts,
      t,
      client: publicClientFor(chain.rpcUrl, contracts.chainId),
      context: () => chainContext(t.settings),
      async close() {
        await t.close();
        await chain.stop();
      },
    };
  } catch (error) {
    await chain.stop();
    throw error;
  }
}

export interface TestUser {
  id: number;
  token: string;
}

export async function newUser(t: TestApp): Promise<TestUser> {
  const token = await signIn(t.app, newAccount(), rootInviteCode);
  const info = await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: token } });
  return { token, id: info.json().data.id };
}

export async function apiGet(t: TestApp, token: string, url: string) {
  return t.app.inject({ method: 'GET', url, headers: { authorization: token, lang: 'EN' } });
}

export async function apiPost(t: TestApp, token: string, url: string, payload: object) {
  return t.app.inject({ method: 'POST', url, payload, headers: { authorization: token, lang: 'EN' } });
}

/** A wallet client for demo account #i, signing locally with its public test key. */
export function demoWallet(rpcUrl: string, i: number) {
  const key = hardhatDevPrivateKeys[i];
  if (!key) throw new Error(`no demo account #${i}`);
  return localWalletClient(rpcUrl, privateKeyToAccount(key));
}

/** Sends `amount` of an ERC-20 from demo account #i and waits for the receipt. */
export async function sendToken(bed: ChainTestBed, from: number, token: Address, to: Address, amount: bigint) {
  const hash = await demoWallet(bed.chain.rpcUrl, from).writeContract({ address: token, abi: nadiTokenAbi, functionName: 'transfer', args: [to, amount] });
  return bed.client.waitForTransactionReceipt({ hash });
}

/**
 * Signs a token transfer without sending it, so a test can send the very same transaction twice.
 * A fixed `gas` skips the estimate (which would refuse a transfer that reverts); a higher
 * `maxPriorityFeePerGas` puts it first in a block.
 */
export async function signTransfer(
  bed: ChainTestBed,
  from: number,
  token: Address,
  to: Address,
  amount: bigint,
  options: { gas?: bigint; maxPriorityFeePerGas?: bigint } = {},
): Promise<Hex> {
  const wallet = demoWallet(bed.chain.rpcUrl, from);
  const request = await wallet.prepareTransactionRequest({
    to: token,
    data: encodeFunctionData({ abi: nadiTokenAbi, functionName: 'transfer', args: [to, amount] }),
    ...options,
  });
  return wallet.signTransaction(request);
}

/** eth_sendRawTransaction; the node answers an error for a transaction that reverts, yet mines it. */
export async function sendRaw(bed: ChainTestBed, raw: Hex): Promise<void> {
  await rpcRequest<Hash>(bed.chain.rpcUrl, 'eth_sendRawTransaction', [raw]).catch(() => undefined);
}

export async function snapshot(bed: ChainTestBed): Promise<string> {
  return rpcRequest<string>(bed.chain.rpcUrl, 'evm_snapshot');
}

export async function revertTo(bed: ChainTestBed, id: string): Promise<void> {
  const isReverted = await rpcRequest<boolean>(bed.chain.rpcUrl, 'evm_revert', [id]);
  if (!isReverted) throw new Error(`evm_revert ${id} failed`);
}

/** The context with some client calls replaced (a faked receipt, a node that fails mid-round). */
export function withClient(context: ChainContext, overrides: Partial<Record<keyof PublicClient, unknown>>): ChainContext {
  const client = new Proxy(context.client, {
    get: (target, property, receiver) => (property in overrides ? overrides[property as keyof PublicClient] : Reflect.get(target, property, receiver)),
  });
  return { ...context, client };
}
