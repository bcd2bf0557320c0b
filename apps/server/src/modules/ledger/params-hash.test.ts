// The parameter hash of a flow opened in SQL (ledger_params_hash, ledger_open_flow) is hashParams'
// (lib/hash-params.ts): sha256 of the text JSON.stringify writes, keys in the order given, bigints as
// decimal strings, strings escaped alike whatever their characters.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgCode } from '../../db/pg-code.ts';
import { rowsOf } from '../../db/rows.ts';
import { hashParams } from '../../lib/hash-params.ts';
import { createTestDatabase } from '../../test/harness.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

const jsonText = (params: unknown, space?: number) => JSON.stringify(params, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), space);

async function sqlHash(json: string): Promise<string> {
  return rowsOf<{ h: string }>(await database.db.execute(sql`select ledger_params_hash(${json}::json) as h`))[0]!.h;
}

const cases: [string, unknown][] = [
  ['keys out of alphabetical order', { epoch: 7, b: 1, a: 2, zz: 3, aa: 4 }],
  ['bigint amounts', { userId: 12, amount: 10n ** 27n, fee: 0n, negative: -5n }],
  ['nested objects and arrays', { outer: { z: [1, 2, { y: null, x: true, w: false }], a: [] }, empty: {}, list: [[], [{}], 'x'] }],
  ['unicode', { memo: 'é 日本語 😀 ü', 'kéy 😀': 'ß', arabic: 'نادي' }],
  ['escapes', { s: 'quote " backslash \\ slash / nl \n cr \r tab \t bs \b ff \f ctl \u0001 \u001f del \u007f ls \u2028' }],
  ['numbers', { zero: 0, negative: -42, big: 9007199254740991, fraction: 1.5, small: 0.25 }],
  ['a string at the top', 'just text'],
  ['an array at the top', [3, 'two', { one: 1 }]],
];

describe('ledger_params_hash', () => {
  it.each(cases)('equals hashParams for %s', async (_name, params) => {
    const expected = hashParams(params);
    expect(await sqlHash(jsonText(params))).toBe(expected);
    // Whitespace in the json does not change the text hashed.
    expect(await sqlHash(jsonText(params, 2))).toBe(expected);
  });

  it('hashes a json_build_object as TypeScript hashes the same object', async () => {
    const row = rowsOf<{ h: string }>(
      await database.db.execute(
        sql`select ledger_params_hash(json_build_object('epoch', 3, 'payable', (10::numeric ^ 24)::numeric(78, 0)::text, 'bps', 2500, 'list', json_build_array('a', 1), 'memo', 'ü "x"')) as h`,
      ),
    )[0]!;
    expect(row.h).toBe(hashParams({ epoch: 3, payable: 10n ** 24n, bps: 2500, list: ['a', 1], memo: 'ü "x"' }));
    // Key order matters, as in TypeScript.
    expect(hashParams({ a: 1, b: 2 })).not.toBe(hashParams({ b: 2, a: 1 }));
    expect(await sqlHash('{"b":2,"a":1}')).toBe(hashParams({ b: 2, a: 1 }));
  });
});

describe('ledger_open_flow', () => {
  it('records the flow with the hash of its parameters and refuses a used key (NL001)', async () => {
    const params = { epoch: 5, paid: 123n, note: 'ü' };
    const id = rowsOf<{ id: string }>(
      await database.db.execute(
        sql`select ledger_open_flow('test:open:5', NULL, 'data_adjustment', json_build_object('epoch', 5, 'paid', '123', 'note', 'ü'), now())::text as id`,
      ),
    )[0]!.id;
    const flow = rowsOf<{ params_hash: string; idempotency_key: string }>(
      await database.db.execute(sql`select idempotency_key, params_hash from ledger_flows where id = ${id}::bigint`),
    )[0]!;
    expect(flow).toEqual({ idempotency_key: 'test:open:5', params_hash: hashParams(params) });
    const again = database.db.execute(sql`select ledger_open_flow('test:open:5', NULL, 'data_adjustment', '{}'::json, now())`);
    await expect(again).rejects.toSatisfy((error) => pgCode(error) === 'NL001');
  });
});
