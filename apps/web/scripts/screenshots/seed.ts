// What the detail screens need, made through the API as a user and the operator would make it: an
// address, a store order, a savings position, a node, withdrawals (one pending, one rejected), a
// deposit on chain, transfers, a resting trade order, today's sign-in, a direct in the team, a
// notice in all ten languages and a proof-of-reserves snapshot. Each step that fails is reported and
// the gallery goes on: a missing record shows as an empty list in the shots, which the sheet's
// reviewer sees.
import { randomUUID } from 'node:crypto';
import { encodeFunctionData, erc20Abi, getAddress, parseUnits, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { hardhatDevPrivateKeys } from '@nadi/chain/demo-accounts';
import { EnvelopeClient, type EnvelopeConfig } from '@nadi/envelope/client';
import { units } from '@nadi/money/money';
import { noticeForShots } from './notice-texts.ts';
import { jsonRpc } from '../../../../e2e/support/json-rpc.ts';

/** Hardhat #1: demo account #1, whose devices scripts/start.ts activates, so mining has data. */
const userKey = hardhatDevPrivateKeys[1] as Hex;
/** Hardhat #2 joins with the user's invite code: the team's direct. */
const inviteeKey = hardhatDevPrivateKeys[2] as Hex;
/** Hardhat #0: the root user and, in development, the operator. */
const operatorKey = hardhatDevPrivateKeys[0] as Hex;

type Envelope = { code: number; msg?: string; reason?: string; data?: unknown };

export class Api {
  readonly baseUrl: string;
  private readonly envelope: EnvelopeClient;
  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
    this.envelope = new EnvelopeClient({
      loadConfig: async () => ((await (await fetch(`${baseUrl}/api/v1/common/config`)).json()) as { data: { encryption: EnvelopeConfig } }).data.encryption,
    });
  }

  async call<T>(token: string | null, method: 'GET' | 'POST', pathAndQuery: string, body?: unknown): Promise<T> {
    const idempotencyKey = method === 'POST' ? randomUUID() : undefined;
    const answer = (await this.envelope.request({ method, pathAndQuery, token, body, idempotencyKey }, (url, init) =>
      fetch(`${this.baseUrl}${url}`, init),
    )) as {
      body: Envelope;
    };
    if (answer.body.code !== 200) throw new Error(`${pathAndQuery}: ${answer.body.reason ?? answer.body.msg ?? JSON.stringify(answer.body)}`);
    return answer.body.data as T;
  }

  /** Signs in with a Hardhat key; a new address registers with `inviteCode`. */
  async signIn(key: Hex, inviteCode: string): Promise<{ token: string; address: Address }> {
    const account = privateKeyToAccount(key);
    const { message } = await this.call<{ message: string }>(null, 'GET', `/api/v1/auth/loginMessage?address=${account.address}`);
    const signature = await account.signMessage({ message });
    const { token } = await this.call<{ token: string }>(null, 'POST', '/api/v1/auth/login', {
      address: account.address,
      message,
      sign_message: signature,
      code: inviteCode,
    });
    return { token, address: account.address };
  }

  rpc(method: string, params: unknown[]): Promise<unknown> {
    return jsonRpc(`${this.baseUrl}/rpc`, method, params);
  }
}

/** The ids the detail screens' paths need; null where the seed could not make one. */
export interface Seeded {
  address: Address;
  addressId: number | null;
  productId: number | null;
  orderId: number | null;
  pledgeProductId: number | null;
  nodeTierId: number | null;
  noticeId: number | null;
}

export interface SeedContext {
  api: Api;
  token: string;
  address: Address;
  problems: string[];
}

/** Runs one step; a failure is recorded and answers null. */
async function step<T>(ctx: SeedContext, name: string, run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    ctx.problems.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

export interface SeedResult {
  seeded: Seeded;
  /** The user's session, for the phones: the token and the signed-in address. */
  session: { token: string; address: Address };
  problems: string[];
}

export async function seed(api: Api, rootInviteCode: string): Promise<SeedResult> {
  const user = await api.signIn(userKey, rootInviteCode);
  const ctx: SeedContext = { api, token: user.token, address: user.address, problems: [] };
  const get = <T>(path: string) => api.call<T>(user.token, 'GET', path);
  const post = <T>(path: string, body?: unknown) => api.call<T>(user.token, 'POST', path, body);

  await step(ctx, 'team direct', async () => {
    const info = await get<{ code: string }>('/api/v1/user/info');
    await api.signIn(inviteeKey, info.code);
  });
  const addressId = await step(ctx, 'address', () => ensureAddress(ctx));
  const productId = await step(ctx, 'store product', async () => (await get<{ list: { id: number }[] }>('/api/v1/store/products')).list[0]?.id ?? null);
  const orderId = await step(ctx, 'store order', () => ensureOrder(ctx, productId, addressId));
  const pledgeProductId = await step(ctx, 'savings position', () => joinSavings(ctx));
  const nodeTierId = await step(ctx, 'node', () => buyNode(ctx));
  await step(ctx, 'withdrawals', () => withdrawals(ctx));
  await step(ctx, 'deposit', () => deposit(ctx));
  await step(ctx, 'transfers', async () => {
    await post('/api/v1/wallet/transfer', { asset: 'USDT', from: 'fund', to: 'trade', amount: '100' });
    await post('/api/v1/wallet/transfer', { asset: 'NADI', from: 'fund', to: 'trade', amount: '500' });
  });
  await step(ctx, 'trade order', () => restingOrder(ctx));
  await step(ctx, 'daily sign-in', () =>
    post('/api/v1/sign/operate').catch((error: Error) => (/SIGN_IN_ALREADY/.test(error.message) ? null : Promise.reject(error))),
  );
  const noticeId = await step(ctx, 'notice', async () => {
    const operator = await api.signIn(operatorKey, '');
    return (await api.call<{ id: number }>(operator.token, 'POST', '/api/v1/operator/notice/publish', { translations: noticeForShots })).id;
  });
  await step(ctx, 'proof of reserves', () => proofSnapshot(ctx));
  return { session: user, seeded: { address: user.address, addressId, productId, orderId, pledgeProductId, nodeTierId, noticeId }, problems: ctx.problems };
}

/**
 * A liabilities snapshot taken now by the operator, after everything above moved money (one may
 * exist already from an ended epoch, within the minute an operator must wait), published on chain
 * when the server has a publisher contract: /transparency then has figures and a root to verify.
 */
async function proofSnapshot(ctx: SeedContext): Promise<void> {
  const operator = await ctx.api.signIn(operatorKey, '');
  await ctx.api
    .call(operator.token, 'POST', '/api/v1/operator/transparency/snapshot', {})
    .catch((error: Error) => (/SNAPSHOT_TOO_SOON/.test(error.message) ? null : Promise.reject(error)));
  const summary = await ctx.api.call<{ latest: { id: number } | null; contract: unknown }>(null, 'GET', '/api/v1/transparency/summary');
  if (summary.contract && summary.latest) await ctx.api.call(operator.token, 'POST', '/api/v1/operator/transparency/publish', { id: summary.latest.id });
}

async function ensureAddress(ctx: SeedContext): Promise<number> {
  const existing = await ctx.api.call<{ list: { id: number }[] }>(ctx.token, 'GET', '/api/v1/address/list');
  if (existing.list[0]) return existing.list[0].id;
  const body = {
    receiver_name: 'Grace Hopper',
    phone_country: 'US',
    phone: '(201) 555-0147',
    area: 'Arlington, VA',
    detail: '1 Navy Yard, Building 3',
    is_default: true,
  };
  return (await ctx.api.call<{ id: number }>(ctx.token, 'POST', '/api/v1/address/add', body)).id;
}

/** One device bought with the demo grant's USDT: an order "to ship" (a rerun on a --url stack reuses one). */
async function ensureOrder(ctx: SeedContext, productId: number | null, addressId: number | null): Promise<number> {
  const existing = await ctx.api.call<{ list: { id: number }[] }>(ctx.token, 'GET', '/api/v1/machine/orderList');
  if (existing.list[0]) return existing.list[0].id;
  if (productId === null || addressId === null) throw new Error('no product or address to order with');
  const items = [{ product_id: productId, quantity: 1 }];
  const { order } = await ctx.api.call<{ order: { id: number } }>(ctx.token, 'POST', '/api/v1/machine/order', {
    items,
    pay_method: 'balance',
    pay_asset: 'USDT',
    address_id: addressId,
  });
  return order.id;
}

/** Joins the first open savings product with its minimum (or 100 NADI when that is more). */
async function joinSavings(ctx: SeedContext): Promise<number> {
  const { list } = await ctx.api.call<{ list: { id: number; min_pledge: string; can_join?: boolean }[] }>(ctx.token, 'GET', '/api/v1/financial/list');
  const product = list.find((p) => p.can_join !== false) ?? list[0];
  if (!product) throw new Error('no savings product');
  const amount = units(product.min_pledge) > units('100') ? product.min_pledge : '100';
  await ctx.api.call(ctx.token, 'POST', '/api/v1/financial/join', { product_id: product.id, amount });
  return product.id;
}

/** Buys the first tier on sale from the fund account's NADI (USDT is mostly spent on the device). */
async function buyNode(ctx: SeedContext): Promise<number> {
  const { list } = await ctx.api.call<{ list: { id: number; is_on_sale?: boolean; sale_state?: string }[] }>(ctx.token, 'GET', '/api/v1/node/list');
  const tier = list[0];
  if (!tier) throw new Error('no node tier');
  const mine = await ctx.api.call<{ list: unknown[] }>(ctx.token, 'GET', '/api/v1/node/mine');
  if (mine.list.length > 0) return tier.id;
  const order = { tier_id: tier.id, pay_method: 'balance', pay_asset: 'NADI' };
  const quote = await ctx.api.call<{ price: string | null }>(ctx.token, 'POST', '/api/v1/node/quote', order);
  await ctx.api.call(ctx.token, 'POST', '/api/v1/node/buy', { ...order, price: quote.price });
  return tier.id;
}

/** Two requests: one left pending review, one the operator rejects with a reason. */
async function withdrawals(ctx: SeedContext): Promise<void> {
  const rejected = await ctx.api.call<{ id: number }>(ctx.token, 'POST', '/api/v1/withdraw/apply', { amount: '30' });
  const operator = await ctx.api.signIn(operatorKey, '');
  await ctx.api.call(operator.token, 'POST', '/api/v1/operator/withdraw/reject', { id: rejected.id, reason: 'Address under review' });
  await ctx.api.call(ctx.token, 'POST', '/api/v1/withdraw/apply', { amount: '25' });
}

/** A real NADI transfer to the user's deposit address; the server's watcher lists it as it confirms. */
async function deposit(ctx: SeedContext): Promise<void> {
  const target = await ctx.api.call<{ address: string; token_address: string }>(ctx.token, 'GET', '/api/v1/recharge/address');
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [getAddress(target.address), parseUnits('12.5', 18)] });
  await ctx.api.rpc('eth_sendTransaction', [{ from: ctx.address, to: getAddress(target.token_address), data }]);
}

/** A limit buy well under the market, so "current orders" lists one that stays open. */
async function restingOrder(ctx: SeedContext): Promise<void> {
  const ticker = await ctx.api.call<{ last_price: string | null }>(null, 'GET', '/api/v1/trade/ticker?symbol=NADI-USDT').catch(() => ({ last_price: null }));
  const price = ticker.last_price && units(ticker.last_price) > units('0.02') ? '0.01' : '0.001';
  await ctx.api.call(ctx.token, 'POST', '/api/v1/trade/order', { symbol: 'NADI-USDT', side: 'buy', type: 'limit', price, quantity: '1000' });
}
