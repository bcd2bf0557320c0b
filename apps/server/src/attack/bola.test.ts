// The BOLA / BFLA matrix (issue 20, docs/security.md): two users, A and B, and an operator. A owns
// one of every object a route takes an id of (store orders and their delivery address, a withdrawal,
// a credited deposit, a savings position, a miner from an activated device, a node holding, a payment
// order, a trade order, an exchange quote), the operator owns notices (a draft, a withdrawn one) and a
// pending approval. Then every route that takes such an id is tried with A's ids:
//   - as B: a user's object answers exactly what an id that does not exist answers (NOT_FOUND where
//     the route reads or changes the object itself), so nothing is revealed, not even existence;
//   - as no session: 401 UNAUTHORIZED;
//   - as B on the operator's paths (BFLA): 403 FORBIDDEN before the input is looked at;
// and nothing changed: every table of the database is hashed (row count and content) before and
// after, and the ledger audit passes. The id-taking routes are found by walking the contract
// (inputs named id, *_id, order_no, serial, at any depth): a route added later without a row in the
// matrix below fails the coverage test.
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { newDeviceKey } from '@nadi/device-agent/keys';
import { rowsOf } from '../db/rows.ts';
import { auditLedger, postFlow, systemAccount, transfer, userAccount } from '../modules/ledger/index.ts';
import { depositFlowKey, markCredited } from '../modules/onchain/index.ts';
import { takeSnapshot } from '../modules/transparency/index.ts';
import { heartbeat, operatorToken } from '../test/devices.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { fundUser, tokens } from '../test/money.ts';
import { buyNodeAs, tierOf } from '../test/node.ts';
import { join as joinSavings, seededProduct } from '../test/pledge.ts';
import { boxedDevices, newShopper, placeOrder, productOf, shopGet, shopPost, type Shopper } from '../test/store.ts';
import { loadContractRoutes } from '../test/contract-routes.ts';

// ---------------------------------------------------------------------------------------------
// The contract: every route, and the id-like inputs of each (nested ones as `items[].product_id`).

const contractRoutesByKey = await loadContractRoutes();
const contractRoutes = () => [...contractRoutesByKey.values()];

const isIdName = (name: string) => name === 'id' || name.endsWith('_id') || name === 'order_no' || name === 'serial' || name === 'serials';

interface JsonSchema {
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

/** The id-like input names of a schema, at any depth. */
function idInputsOf(schema: JsonSchema, prefix = ''): string[] {
  const found: string[] = [];
  for (const [name, sub] of Object.entries(schema.properties ?? {})) {
    if (isIdName(name)) found.push(`${prefix}${name}`);
    found.push(...idInputsOf(sub, `${prefix}${name}.`));
  }
  if (schema.items) found.push(...idInputsOf(schema.items, prefix.replace(/\.$/, '[].')));
  for (const alt of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) found.push(...idInputsOf(alt, prefix));
  return [...new Set(found)];
}

const idRoutes = new Map<string, string[]>();
for (const r of contractRoutes()) {
  if (!r.input) continue;
  const inputs = idInputsOf(z.toJSONSchema(r.input, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
  if (inputs.length > 0) idRoutes.set(`${r.method} ${r.path}`, inputs);
}

// ---------------------------------------------------------------------------------------------
// The world: A's objects, the operator's, and B (funded, so B's refusals come from ownership only).

let t: TestApp;
let operator: string;
let a: Shopper;
let b: Shopper;
const ids = {} as {
  addressId: number;
  paidOrderId: number;
  shippedOrderId: number;
  unpaidOrderId: number;
  orderNo: string;
  paymentOrderId: number;
  withdrawalId: number;
  depositId: number;
  positionId: number;
  holdingId: number;
  minerSerial: string;
  shipSerial: string;
  tradeOrderId: number;
  clientOrderId: string;
  quoteId: string;
  draftNoticeId: number;
  withdrawnNoticeId: number;
  publishedNoticeId: number;
  approvalId: number;
  sessionId: number;
  idempotencyKey: string;
  tierId: number;
  productId: number;
  savingsProductId: number;
  snapshotId: number;
};
const db = () => t.database.db;

async function one<T>(query: ReturnType<typeof sql>): Promise<T> {
  const row = rowsOf<Record<string, T>>(await db().execute(query))[0];
  if (!row) throw new Error('no row');
  return Object.values(row)[0] as T;
}

function ok(res: LightMyRequestResponse, what: string) {
  if (res.statusCode !== 200) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

const asOperator = { token: '', ip: '10.9.0.1' };

beforeAll(async () => {
  t = await createTestApp({
    PAYMENT_GATEWAY_ADDRESS: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    NADI_ADDRESS: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
    USDT_ADDRESS: '0x9fE46736679d2D9a65F0992F10d36d9c39d8bA31',
  });
  operator = await operatorToken(t.app);
  asOperator.token = operator;
  a = await newShopper(t);
  b = await newShopper(t);
  for (const u of [a, b]) {
    await fundUser(db(), u.id, 'USDT', tokens(5_000));
    await fundUser(db(), u.id, 'NADI', tokens(50_000));
  }
  await makeStoreObjects();
  await makeMoneyObjects();
  await makeOperatorObjects();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

async function makeStoreObjects() {
  const box = await productOf(db(), 'NADI-BOX-1');
  ids.productId = box.id;
  ids.addressId = a.addressId;
  ids.idempotencyKey = randomUUID();
  const paid = ok(await placeOrder(t, a, { items: [{ product_id: box.id, quantity: 1 }] }, ids.idempotencyKey), 'paid order').order;
  ids.paidOrderId = paid.id;
  ids.orderNo = paid.order_no;
  const toShip = ok(await placeOrder(t, a, { items: [{ product_id: box.id, quantity: 1 }] }), 'order to ship').order;
  const [shipDevice, minerDevice] = await boxedDevices(t.app, operator, 'NADI-BOX-1', 2);
  if (!shipDevice || !minerDevice) throw new Error('no devices');
  ok(
    await shopPost(t, asOperator, '/api/v1/operator/store/ship', {
      id: toShip.id,
      courier_company: 'Kerry',
      courier_number: 'KE-1',
      devices: [{ serial: shipDevice.serial, code: shipDevice.code }],
    }),
    'ship',
  );
  ids.shippedOrderId = toShip.id;
  ids.shipSerial = shipDevice.serial;
  const unpaid = ok(await placeOrder(t, a, { items: [{ product_id: box.id, quantity: 1 }], pay_method: 'chain' }), 'chain order');
  ids.unpaidOrderId = unpaid.order.id;
  ids.paymentOrderId = await one<number>(sql`select payment_order_id as v from store_orders where id = ${unpaid.order.id}`);
  ok(await shopPost(t, a, '/api/v1/mining/activate', { code: minerDevice.code }), 'activate');
  ids.minerSerial = minerDevice.serial;
  heartbeatKey.serial = minerDevice.serial;
}
/** The miner's serial with a key that is not the device's: what an attacker can sign with. */
const heartbeatKey = { ...newDeviceKey('ATK') };

async function makeMoneyObjects() {
  ids.withdrawalId = ok(await shopPost(t, a, '/api/v1/withdraw/apply', { amount: '10' }), 'withdraw').id;
  ids.depositId = await creditedDeposit(a.id, tokens(7));
  ids.savingsProductId = await seededProduct(db(), 'flexible');
  ids.positionId = ok(await joinSavings(t, { id: a.id, token: a.token }, ids.savingsProductId, '100'), 'join').position.id;
  const tier = await tierOf(db(), 1);
  ids.tierId = tier.id;
  ok(await buyNodeAs(t, a, { tier_id: tier.id, pay_method: 'balance', price: '0.5' }), 'buy node');
  ids.holdingId = await one<number>(sql`select id as v from user_nodes where user_id = ${a.id}`);
  ok(
    await shopPost(t, a, '/api/v1/wallet/transfer', { asset: 'USDT', from: 'fund', to: 'trade', amount: '100' }, { 'idempotency-key': randomUUID() }),
    'to trade',
  );
  ids.clientOrderId = `a-${randomUUID().slice(0, 8)}`;
  const order = {
    symbol: 'NADI-USDT',
    side: 'buy',
    type: 'limit',
    price: '0.01',
    quantity: '1000',
    client_order_id: ids.clientOrderId,
  };
  ids.tradeOrderId = ok(await shopPost(t, a, '/api/v1/trade/order', order), 'trade order').id;
  ids.quoteId = ok(await shopPost(t, a, '/api/v1/wallet/exchange/quote', { from_asset: 'NADI', to_asset: 'USDT', amount: '10' }), 'quote').quote_id;
  ids.sessionId = await one<number>(sql`select max(id) as v from sessions where user_id = ${a.id}`);
}

/** A deposit as the watcher leaves it once confirmed: the row, its ledger flow from custody, marked credited. */
async function creditedDeposit(userId: number, amount: bigint): Promise<number> {
  const txHash = `0x${randomBytes(32).toString('hex')}`;
  const id = await one<number>(sql`
    insert into deposits (chain_id, tx_hash, log_index, block_number, block_hash, user_id, address, from_address, token, amount)
    values (31337, ${txHash}, 0, 1, ${`0x${'cd'.repeat(32)}`}, ${userId}, '0x1111111111111111111111111111111111111111',
            '0x2222222222222222222222222222222222222222', '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512', ${amount.toString()}::numeric)
    returning id as v`);
  await db().transaction(async (tx) => {
    const flow = await postFlow(tx, {
      idempotencyKey: depositFlowKey(31337, txHash, 0),
      userId,
      type: 'cross_chain_recharge',
      params: { txHash, userId, amount },
      legs: [transfer('cross_chain_recharge', systemAccount('custody', 'NADI'), userAccount(userId, 'fund', 'NADI'), amount, { deposit_id: id })],
      result: () => null,
    });
    await markCredited(tx, id, flow.flowId, 3, t.clock.now());
  });
  return id;
}

async function makeOperatorObjects() {
  const text = { EN: { title: 'Maintenance', content: 'The node sale pauses tonight.' } };
  ids.draftNoticeId = ok(await shopPost(t, asOperator, '/api/v1/operator/notice/save', { translations: text }), 'draft').id;
  ids.withdrawnNoticeId = ok(await shopPost(t, asOperator, '/api/v1/operator/notice/publish', { translations: text }), 'publish').id;
  ok(await shopPost(t, asOperator, '/api/v1/operator/notice/withdraw', { id: ids.withdrawnNoticeId, reason: 'wrong date' }), 'withdraw notice');
  ids.publishedNoticeId = ok(await shopPost(t, asOperator, '/api/v1/operator/notice/publish', { translations: text }), 'published').id;
  // Taken as the job takes it, without the chain this file has none of (no reserves to read).
  const taken = await takeSnapshot({ ...t.app.deps, settings: { ...t.app.deps.settings, nadiAddress: null } }, 'operator', null);
  if (taken.status !== 'taken') throw new Error(`snapshot: ${JSON.stringify(taken)}`);
  ids.snapshotId = taken.snapshotId;
  const epoch = ok(await shopGet(t, asOperator, '/api/v1/operator/economy/params'), 'params').epoch as number;
  ids.approvalId = ok(
    await shopPost(t, asOperator, '/api/v1/operator/economy/param', { name: 'immediateBps', value: '3000', effective_epoch: epoch + 1, reason: 'tune' }),
    'approval',
  ).id;
}

// ---------------------------------------------------------------------------------------------
// The matrix. Each row: the route, how it is tried with A's (or the operator's) object, and what
// kind of object it names. `missing` is the same request with ids that do not exist: B's answer
// must equal it (status, reason and message), so an attacker cannot tell A's object from nothing.

type Kind =
  /** A user's object: B gets what a missing id gets, NOT_FOUND unless `reason` says otherwise. */
  | 'owned'
  /** An operator path (BFLA): B gets 403 FORBIDDEN. */
  | 'operator'
  /** A public catalogue object (a tier, a product, a savings product, a published notice): not a BOLA target. */
  | 'public'
  /** The device's own key proves ownership (no session): B signing for A's serial is refused. */
  | 'device';

interface Attempt {
  route: string;
  kind: Kind;
  /** The request as B would send it, with A's ids. */
  input: () => Record<string, unknown>;
  /** The same with ids that do not exist (owned rows). */
  missing?: () => Record<string, unknown>;
  /** The refusal B gets, when it is not NOT_FOUND (it is still the same as for a missing id). */
  reason?: string;
  /** Extra headers (an Idempotency-Key). */
  headers?: () => Record<string, string>;
}

const nowhere = 2_000_000_000;
const idem = () => ({ 'idempotency-key': randomUUID() });

const matrix: Attempt[] = [
  // Store: orders, their delivery address, the payment order.
  { route: 'GET /api/v1/machine/orderDetail', kind: 'owned', input: () => ({ id: ids.paidOrderId }), missing: () => ({ id: nowhere }) },
  { route: 'POST /api/v1/machine/cancel', kind: 'owned', input: () => ({ id: ids.unpaidOrderId }), missing: () => ({ id: nowhere }) },
  { route: 'POST /api/v1/machine/receipt', kind: 'owned', input: () => ({ id: ids.shippedOrderId }), missing: () => ({ id: nowhere }) },
  {
    route: 'POST /api/v1/machine/order',
    kind: 'owned',
    // The address is looked up among the caller's own: another user's is "no address", like a missing one.
    reason: 'ADDRESS_REQUIRED',
    input: () => ({ items: [{ product_id: ids.productId, quantity: 1 }], pay_method: 'balance', pay_asset: 'USDT', address_id: ids.addressId }),
    missing: () => ({ items: [{ product_id: ids.productId, quantity: 1 }], pay_method: 'balance', pay_asset: 'USDT', address_id: nowhere }),
    headers: idem,
  },
  { route: 'GET /api/v1/address/detail', kind: 'owned', input: () => ({ id: ids.addressId }), missing: () => ({ id: nowhere }) },
  { route: 'POST /api/v1/address/delete', kind: 'owned', input: () => ({ id: ids.addressId }), missing: () => ({ id: nowhere }) },
  { route: 'POST /api/v1/address/setDefault', kind: 'owned', input: () => ({ id: ids.addressId }), missing: () => ({ id: nowhere }) },
  {
    route: 'POST /api/v1/address/edit',
    kind: 'owned',
    input: () => ({ ...addressFields, id: ids.addressId }),
    missing: () => ({ ...addressFields, id: nowhere }),
  },
  { route: 'GET /api/v1/payment/order', kind: 'owned', input: () => ({ id: ids.paymentOrderId }), missing: () => ({ id: nowhere }) },
  // Savings, nodes, the market, the exchange, the team.
  { route: 'POST /api/v1/financial/redeem', kind: 'owned', input: () => ({ id: ids.positionId }), missing: () => ({ id: nowhere }) },
  { route: 'GET /api/v1/node/earnings', kind: 'owned', input: () => ({ holding_id: ids.holdingId }), missing: () => ({ holding_id: nowhere }) },
  { route: 'POST /api/v1/trade/cancel', kind: 'owned', input: () => ({ order_id: ids.tradeOrderId }), missing: () => ({ order_id: nowhere }) },
  {
    route: 'POST /api/v1/wallet/exchange/confirm',
    kind: 'owned',
    // A quote is consumed only if it is the caller's: another user's is "expired", like a missing one.
    reason: 'QUOTE_EXPIRED',
    input: () => ({ quote_id: ids.quoteId, amount: '10' }),
    missing: () => ({ quote_id: randomUUID(), amount: '10' }),
    headers: idem,
  },
  { route: 'GET /api/v1/user/zhiList', kind: 'owned', input: () => ({ user_id: a.id }), missing: () => ({ user_id: nowhere }) },
  // The device: the serial of A's miner, signed with a key that is not the device's.
  { route: 'POST /api/v1/device/heartbeat', kind: 'device', input: () => ({}) },
  // Public catalogue objects, read or bought by anyone: not another user's.
  { route: 'GET /api/v1/store/product', kind: 'public', input: () => ({ id: ids.productId }) },
  { route: 'POST /api/v1/store/quote', kind: 'public', input: () => ({ items: [{ product_id: ids.productId, quantity: 1 }], pay_method: 'balance' }) },
  { route: 'GET /api/v1/node/detail', kind: 'public', input: () => ({ id: ids.tierId }) },
  { route: 'POST /api/v1/node/quote', kind: 'public', input: () => ({ tier_id: ids.tierId, pay_method: 'balance', pay_asset: 'USDT' }) },
  { route: 'POST /api/v1/node/buy', kind: 'public', input: () => ({ tier_id: ids.tierId, pay_method: 'balance', price: '0.5' }) },
  { route: 'GET /api/v1/financial/detail', kind: 'public', input: () => ({ id: ids.savingsProductId }) },
  { route: 'POST /api/v1/financial/join', kind: 'public', input: () => ({ product_id: ids.savingsProductId, amount: '100' }) },
  { route: 'POST /api/v1/trade/order', kind: 'public', input: () => ({}) },
  // Snapshots are public (docs/transparency.md); a proof is always the caller's own, whatever snapshot it names.
  { route: 'GET /api/v1/transparency/snapshot', kind: 'public', input: () => ({ id: ids.snapshotId }) },
  { route: 'GET /api/v1/transparency/proof/balance', kind: 'public', input: () => ({ snapshot_id: ids.snapshotId }) },
  // Notices: a draft or withdrawn notice is the operator's; a reader gets NOT_FOUND (checked below).
  { route: 'GET /api/v1/notice/detail', kind: 'owned', input: () => ({ id: ids.draftNoticeId }), missing: () => ({ id: nowhere }) },
  // The operator's paths, tried by B with A's objects (BFLA).
  { route: 'POST /api/v1/operator/withdraw/approve', kind: 'operator', input: () => ({ id: ids.withdrawalId }) },
  { route: 'POST /api/v1/operator/withdraw/reject', kind: 'operator', input: () => ({ id: ids.withdrawalId, reason: 'x' }) },
  {
    route: 'POST /api/v1/operator/store/ship',
    kind: 'operator',
    input: () => ({ id: ids.paidOrderId, courier_company: 'K', courier_number: '1', devices: [] }),
  },
  { route: 'POST /api/v1/operator/store/refund', kind: 'operator', input: () => ({ id: ids.paidOrderId, reason: 'x' }) },
  { route: 'POST /api/v1/operator/store/product', kind: 'operator', input: () => ({ id: ids.productId, is_on_sale: false }) },
  { route: 'POST /api/v1/operator/store/stock', kind: 'operator', input: () => ({ product_id: ids.productId, delta: -1 }) },
  {
    route: 'POST /api/v1/operator/device/register',
    kind: 'operator',
    input: () => ({ model_code: 'NADI-BOX-1', devices: [{ serial: ids.minerSerial, public_key: 'x' }] }),
  },
  { route: 'POST /api/v1/operator/activation/batch', kind: 'operator', input: () => ({ serials: [ids.minerSerial] }) },
  { route: 'POST /api/v1/operator/activation/revoke', kind: 'operator', input: () => ({ serial: ids.shipSerial }) },
  { route: 'POST /api/v1/operator/node/tier', kind: 'operator', input: () => ({ id: ids.tierId, is_on_sale: false }) },
  { route: 'POST /api/v1/operator/pledge/product', kind: 'operator', input: () => ({ id: ids.savingsProductId, is_enabled: false }) },
  { route: 'POST /api/v1/operator/notice/publish', kind: 'operator', input: () => ({ id: ids.draftNoticeId }) },
  {
    route: 'POST /api/v1/operator/notice/save',
    kind: 'operator',
    input: () => ({ id: ids.draftNoticeId, translations: { EN: { title: 'x', content: 'y' } } }),
  },
  { route: 'POST /api/v1/operator/notice/withdraw', kind: 'operator', input: () => ({ id: ids.publishedNoticeId, reason: 'x' }) },
  { route: 'POST /api/v1/operator/approval/approve', kind: 'operator', input: () => ({ id: ids.approvalId }) },
  { route: 'POST /api/v1/operator/approval/reject', kind: 'operator', input: () => ({ id: ids.approvalId, reason: 'x' }) },
  { route: 'GET /api/v1/operator/user', kind: 'operator', input: () => ({ id: a.id }) },
  { route: 'POST /api/v1/operator/user/freeze', kind: 'operator', input: () => ({ user_id: a.id, reason: 'x' }) },
  { route: 'POST /api/v1/operator/user/unfreeze', kind: 'operator', input: () => ({ user_id: a.id, reason: 'x' }) },
  { route: 'POST /api/v1/operator/user/sessions/revoke', kind: 'operator', input: () => ({ user_id: a.id }) },
  { route: 'POST /api/v1/operator/session/revoke', kind: 'operator', input: () => ({ session_id: ids.sessionId }) },
  { route: 'GET /api/v1/operator/audit', kind: 'operator', input: () => ({ target_type: 'user', target_id: String(a.id) }) },
  { route: 'GET /api/v1/operator/audit/export', kind: 'operator', input: () => ({ target_type: 'user', target_id: String(a.id) }) },
  // A snapshot is the platform's, not a user's: publishing one is the operators' alone.
  { route: 'POST /api/v1/operator/transparency/publish', kind: 'operator', input: () => ({ id: ids.snapshotId }) },
];

const addressFields = {
  receiver_name: 'Mallory',
  phone_country: 'TW',
  phone: '+886912000000',
  area: 'Taipei City',
  detail: 'No. 1',
  is_default: true,
};

// ---------------------------------------------------------------------------------------------
// Sending and counting.

/** Attacks (B's and anonymous requests at A's or the operator's objects) apart from controls (A's own reads, ids that do not exist, public reads). */
const figures = { attacks: 0, controls: 0, refusals: {} as Record<string, number>, serverErrors: 0 };

function count(res: LightMyRequestResponse, role: 'attack' | 'control') {
  figures[role === 'attack' ? 'attacks' : 'controls'] += 1;
  if (res.statusCode >= 500) figures.serverErrors += 1;
  if (role === 'attack' && res.statusCode !== 200) {
    const reason = String(res.json().reason);
    figures.refusals[reason] = (figures.refusals[reason] ?? 0) + 1;
  }
}

function send(
  route: string,
  who: Pick<Shopper, 'token' | 'ip'> | null,
  input: Record<string, unknown>,
  headers: Record<string, string> = {},
  role: 'attack' | 'control' = 'attack',
) {
  const [method, path] = route.split(' ') as ['GET' | 'POST', string];
  const res =
    method === 'GET'
      ? shopGet(t, who, `${path}?${new URLSearchParams(Object.entries(input).map(([k, v]): [string, string] => [k, String(v)])).toString()}`)
      : shopPost(t, who, path, input, headers);
  return res.then((r) => {
    count(r, role);
    return r;
  });
}

const refusalOf = (r: LightMyRequestResponse) => ({ status: r.statusCode, reason: r.json().reason, msg: r.json().msg });

/** Every table of the database: its row count and a hash of its rows. Sessions are left out (a request touches its own session's last use). */
async function snapshot(): Promise<Record<string, string>> {
  const tables = rowsOf<{ name: string }>(
    await db().execute(sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`),
  ).map((r) => r.name);
  const out: Record<string, string> = {};
  for (const name of tables) {
    if (name === 'sessions') continue;
    const row = rowsOf<{ n: number; h: string | null }>(
      await db().execute(sql.raw(`select count(*)::int as n, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${name}" x`)),
    )[0];
    out[name] = `${row?.n}:${row?.h}`;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

describe('the BOLA / BFLA matrix', () => {
  it('covers every route of the contract that takes an id, and nothing else', () => {
    expect(idRoutes.size).toBeGreaterThan(40);
    const listed = new Set(matrix.map((m) => m.route));
    const missing = [...idRoutes.keys()].filter((r) => !listed.has(r));
    expect(missing, 'id-taking routes without a row in the matrix').toEqual([]);
    expect(
      [...listed].filter((r) => !idRoutes.has(r)),
      'rows for routes that take no id',
    ).toEqual([]);
    for (const m of matrix) {
      const r = contractRoutes().find((c) => `${c.method} ${c.path}` === m.route);
      if (m.kind === 'operator') expect(r?.role, m.route).toBeDefined();
      else expect(r?.role, m.route).toBeUndefined();
      if (m.kind === 'owned') expect(r?.auth, m.route).toBe(true);
    }
  });

  it('A reads its own objects (the ids are real and A’s)', async () => {
    for (const m of matrix.filter((x) => x.kind === 'owned' && x.route.startsWith('GET ') && x.route !== 'GET /api/v1/notice/detail')) {
      expect((await send(m.route, a, m.input(), {}, 'control')).statusCode, m.route).toBe(200);
    }
    // The public catalogue reads answer anyone.
    for (const m of matrix.filter((x) => x.kind === 'public' && x.route.startsWith('GET '))) {
      expect((await send(m.route, b, m.input(), {}, 'control')).statusCode, m.route).toBe(200);
    }
  });

  it('B, no session and B on operator paths are refused, revealing nothing, and nothing changes', async () => {
    const before = await snapshot();
    for (const m of matrix) {
      if (m.kind === 'public' || m.kind === 'device') continue;
      const route = contractRoutes().find((c) => `${c.method} ${c.path}` === m.route);
      if (route?.auth) {
        const anonymous = await send(m.route, null, m.input(), m.headers?.());
        expect([anonymous.statusCode, anonymous.json().reason], `${m.route} without a session`).toEqual([401, 'UNAUTHORIZED']);
      }
      const asB = await send(m.route, b, m.input(), m.headers?.());
      if (m.kind === 'operator') {
        expect([asB.statusCode, asB.json().reason], `${m.route} as B`).toEqual([403, 'FORBIDDEN']);
        continue;
      }
      expect(asB.json().reason, `${m.route} as B: ${asB.body}`).toBe(m.reason ?? 'NOT_FOUND');
      const nothing = await send(m.route, b, m.missing!(), m.headers?.(), 'control');
      expect(refusalOf(asB), `${m.route}: A's id answers like a missing one`).toEqual(refusalOf(nothing));
    }
    // Notices: a draft and a withdrawn one are the operator's, for A as for B.
    for (const who of [a, b]) {
      for (const id of [ids.draftNoticeId, ids.withdrawnNoticeId]) {
        const res = await send('GET /api/v1/notice/detail', who, { id });
        expect([res.statusCode, res.json().reason], `notice ${id}`).toEqual([404, 'NOT_FOUND']);
      }
    }
    // A heartbeat for A's miner signed with another key.
    const forged = await heartbeat(t.app, t.clock, heartbeatKey, 1);
    count(forged, 'attack');
    expect(forged.json().reason).toBe('HEARTBEAT_SIGNATURE_INVALID');
    const after = await snapshot();
    expect(after).toEqual(before);
    const audit = await auditLedger(db());
    expect(audit.problems).toEqual([]);
  });

  it('B’s lists show none of A’s objects', async () => {
    const lists = [
      '/api/v1/machine/orderList',
      '/api/v1/machine/awaitingActivation',
      '/api/v1/address/list',
      '/api/v1/withdraw/list',
      '/api/v1/recharge/list',
      '/api/v1/financial/records',
      '/api/v1/mining/miners',
      '/api/v1/mining/activations',
      '/api/v1/node/mine',
      '/api/v1/trade/currentOrders',
      '/api/v1/trade/historyOrders',
    ];
    for (const url of lists) {
      const mine = ok(await send(`GET ${url}`, a, {}, {}, 'control'), `${url} as A`);
      const theirs = ok(await send(`GET ${url}`, b, {}), `${url} as B`);
      const size = (d: { list: unknown[] }) => d.list.length;
      if (url === '/api/v1/address/list') {
        // B has its own address; A's is not among them.
        expect(
          theirs.list.map((x: { id: number }) => x.id),
          url,
        ).not.toContain(ids.addressId);
        continue;
      }
      if (url === '/api/v1/mining/miners') {
        // Everyone has a trial miner; A's device is among A's only.
        expect(JSON.stringify(mine), url).toContain(ids.minerSerial);
        expect(JSON.stringify(theirs), url).not.toContain(ids.minerSerial);
        continue;
      }
      if (url !== '/api/v1/trade/historyOrders' && url !== '/api/v1/machine/awaitingActivation') expect(size(mine), `${url} as A`).toBeGreaterThan(0);
      expect(size(theirs), `${url} as B`).toBe(0);
    }
    // The notices list shows the published notice only.
    const notices = ok(await send('GET /api/v1/notice/list', b, {}), 'notices').list.map((n: { id: number }) => n.id);
    expect(notices).toContain(ids.publishedNoticeId);
    expect(notices).not.toContain(ids.draftNoticeId);
    expect(notices).not.toContain(ids.withdrawnNoticeId);
  });

  it('B reusing A’s Idempotency-Key or client order id gets an order of its own, never A’s', async () => {
    const aOrders = async () => JSON.stringify(rowsOf(await db().execute(sql`select * from market_orders where user_id = ${a.id} order by id`)));
    const aStore = async () => JSON.stringify(rowsOf(await db().execute(sql`select * from store_orders where user_id = ${a.id} order by id`)));
    const before = [await aOrders(), await aStore()];
    const order = await send(
      'POST /api/v1/machine/order',
      b,
      { items: [{ product_id: ids.productId, quantity: 1 }], pay_method: 'balance', pay_asset: 'USDT', address_id: b.addressId },
      { 'idempotency-key': ids.idempotencyKey },
    );
    expect(order.statusCode).toBe(200);
    expect(order.json().data.order.id).not.toBe(ids.paidOrderId);
    expect(await one<number>(sql`select user_id as v from store_orders where id = ${order.json().data.order.id}`)).toBe(b.id);
    ok(await send('POST /api/v1/wallet/transfer', b, { asset: 'USDT', from: 'fund', to: 'trade', amount: '100' }, idem(), 'control'), 'to trade');
    const trade = await send('POST /api/v1/trade/order', b, {
      symbol: 'NADI-USDT',
      side: 'buy',
      type: 'limit',
      price: '0.01',
      quantity: '1000',
      client_order_id: ids.clientOrderId,
    });
    expect(trade.statusCode).toBe(200);
    expect(trade.json().data.id).not.toBe(ids.tradeOrderId);
    expect(await one<number>(sql`select user_id as v from market_orders where id = ${trade.json().data.id}`)).toBe(b.id);
    expect([await aOrders(), await aStore()]).toEqual(before);
    const audit = await auditLedger(db());
    expect(audit.problems).toEqual([]);
  });

  it('reports its figures', () => {
    const covered = new Set(matrix.map((m) => m.route)).size;
    console.info(
      `BOLA/BFLA: ${covered} id-taking routes covered, ${figures.attacks} attacks (+${figures.controls} controls), refusals ${JSON.stringify(figures.refusals)}, 5xx ${figures.serverErrors}`,
    );
    expect(figures.serverErrors).toBe(0);
    expect(figures.attacks).toBeGreaterThan(80);
  });
});
