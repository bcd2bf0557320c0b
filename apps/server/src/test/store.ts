// Test helpers for the store: shoppers with a delivery address, orders placed the way the web
// places them (an Idempotency-Key, each shopper from its own client address so the per-address
// rate limit of ordering does not couple unrelated users), and the store's tables dumped whole.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { PrivateKeyAccount } from 'viem/accounts';
import { newDeviceKey, type DeviceKey } from '@nadi/device-agent/keys';
import type { Db } from '../db/client.ts';
import { readPerformance } from '../modules/team/index.ts';
import { rowsOf } from '../db/rows.ts';
import { issueCodes, post } from './devices.ts';
import { rootInviteCode, type TestApp } from './harness.ts';
import { newAccount, signIn } from './sign-in.ts';

export interface Shopper {
  id: number;
  token: string;
  inviteCode: string;
  addressId: number;
  /** The client address this shopper's requests come from. */
  ip: string;
  account: PrivateKeyAccount;
}

let shopperSeq = 0;

/** Signs up a user under `inviteCode` with one (default) delivery address, written straight to the table. */
export async function newShopper(t: TestApp, inviteCode = rootInviteCode): Promise<Shopper> {
  const account = newAccount();
  const token = await signIn(t.app, account, inviteCode);
  const info = (await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: token } })).json().data;
  const rows = rowsOf<{ id: number }>(
    await t.database.db.execute(sql`
      insert into addresses (user_id, receiver_name, phone_country, phone, area, detail, is_default)
      values (${info.id}, 'Lin Mei', 'TW', '+886912345678', 'Taipei City, Xinyi District', 'No. 7, Section 5, Xinyi Road', true)
      returning id`),
  );
  shopperSeq += 1;
  return {
    id: info.id,
    token,
    inviteCode: info.invite_code,
    addressId: Number(rows[0]?.id),
    ip: `10.1.${Math.floor(shopperSeq / 250)}.${shopperSeq % 250}`,
    account,
  };
}

/** Signs the shopper in again (after the test clock moved past the session's idle time). */
export async function signInAgain(t: TestApp, shopper: Shopper): Promise<void> {
  shopper.token = await signIn(t.app, shopper.account);
}

export function shopGet(t: TestApp, who: Pick<Shopper, 'token' | 'ip'> | null, url: string, lang = 'EN') {
  return t.app.inject({ method: 'GET', url, headers: { lang, ...(who ? { authorization: who.token } : {}) }, ...(who ? { remoteAddress: who.ip } : {}) });
}

export function shopPost(t: TestApp, who: Pick<Shopper, 'token' | 'ip'> | null, url: string, payload: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: { lang: 'EN', ...headers, ...(who ? { authorization: who.token } : {}) },
    ...(who ? { remoteAddress: who.ip } : {}),
  });
}

export interface OrderRequest {
  items: { product_id: number; quantity: number }[];
  pay_method?: 'balance' | 'credit' | 'chain';
  pay_asset?: 'USDT' | 'NADI';
  price?: string;
  remark?: string;
  address_id?: number;
}

/** Places an order under `key` (a fresh one by default). */
export function placeOrder(t: TestApp, who: Shopper, request: OrderRequest, key: string = randomUUID()) {
  const body = { pay_method: 'balance', pay_asset: 'USDT', address_id: who.addressId, ...request };
  return shopPost(t, who, '/api/v1/machine/order', body, { 'idempotency-key': key });
}

export interface SeededProduct {
  id: number;
  name: string;
  priceUsdt: bigint;
  modelCode: string;
}

/** The seeded product of a device model. */
export async function productOf(db: Db, modelCode: string): Promise<SeededProduct> {
  const rows = rowsOf<{ id: number; name: string; price_usdt: string; code: string }>(
    await db.execute(sql`
      select p.id, p.name, p.price_usdt::text as price_usdt, m.code from store_products p join device_models m on m.id = p.model_id
       where m.code = ${modelCode} order by p.id limit 1`),
  );
  const row = rows[0];
  if (!row) throw new Error(`no product of model ${modelCode}`);
  return { id: Number(row.id), name: row.name, priceUsdt: BigInt(row.price_usdt), modelCode: row.code };
}

export async function stockOf(db: Db, productId: number): Promise<{ stock: number; sold: number }> {
  const rows = rowsOf<{ stock: number; sold: number }>(await db.execute(sql`select stock, sold from store_products where id = ${productId}`));
  return { stock: Number(rows[0]?.stock), sold: Number(rows[0]?.sold) };
}

/** Sets a product's stock directly (a test's starting point, not how the operator changes it). */
export async function setStock(db: Db, productId: number, stock: number): Promise<void> {
  await db.execute(sql`update store_products set stock = ${stock} where id = ${productId}`);
}

/** Every row of the store's, the team aggregates' and the money's tables, in a fixed order: "nothing changed" means this text is identical. */
export async function storeTables(db: Db): Promise<string> {
  const tables = [
    'store_products',
    'store_orders',
    'store_order_items',
    'store_order_devices',
    'payment_orders',
    'performance_events',
    'user_performance',
    'team_week_performance',
    'team_rewards',
    'team_reward_totals',
    'ledger_accounts',
    'ledger_flows',
    'ledger_transfers',
  ];
  const parts: string[] = [];
  for (const table of tables) {
    const rows = rowsOf<Record<string, unknown>>(await db.execute(sql.raw(`select * from ${table} order by 1, 2`)));
    parts.push(`${table}:${JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`);
  }
  return parts.join('\n');
}

/** A user's purchase performance as the team screen reads it (the pending purchases not folded yet included). */
export async function performanceOf(db: Db, userId: number): Promise<{ me: bigint; team: bigint }> {
  const p = await readPerformance(db, userId);
  return { me: p.mePerformance, team: p.teamPerformance };
}

export async function systemBalance(db: Db, kind: string, asset: 'NADI' | 'USDT'): Promise<bigint> {
  const rows = rowsOf<{ available: string }>(
    await db.execute(sql`select available::text as available from ledger_accounts where user_id is null and kind = ${kind} and asset = ${asset}`),
  );
  return BigInt(rows[0]?.available ?? '0');
}

export interface BoxedDevice {
  serial: string;
  /** The activation code on the card in its box. */
  code: string;
  key: DeviceKey;
}

/** Registers `count` devices of a model through the operator API and issues their codes: what goes in the boxes. */
export async function boxedDevices(app: FastifyInstance, operator: string, modelCode: string, count: number): Promise<BoxedDevice[]> {
  const keys = Array.from({ length: count }, () => newDeviceKey('BOX'));
  const res = await post(app, operator, '/api/v1/operator/device/register', {
    model_code: modelCode,
    devices: keys.map((k) => ({ serial: k.serial, public_key: k.publicKey })),
  });
  if (res.statusCode !== 200) throw new Error(`register failed: ${res.body}`);
  const codes = await issueCodes(
    app,
    operator,
    keys.map((k) => k.serial),
  );
  return keys.map((key) => ({ serial: key.serial, code: codes.get(key.serial) ?? '', key }));
}
