// Request generators for the contract fuzzer (fuzz.test.ts): inputs that look valid, drawn from a
// route's zod contract, and hostile ones (injection strings, huge numbers, wrong types, missing and
// extra fields, oversized and deeply nested bodies, wrong content types, query arrays).
//
// zod-fast-check supports zod 3 only (peer zod ^3.18, fast-check < 4), so this is a small walker over
// the zod 4 schema kinds the contracts use: object, string (regex, lengths, datetime, uuid), number
// (int, bounds), boolean, literal, enum, optional, default, nullable, union, pipe, transform,
// unknown, array, record. A kind it does not know yields arbitrary JSON, which still exercises the route.
import fc from 'fast-check';
import type { z } from 'zod';

/** What a generated request sends; `caller` is filled in by the test (it owns the sessions). */
export interface FuzzRequest {
  /** Which family of input: for the figures and for a failure's description. */
  kind: string;
  caller: 'none' | 'user' | 'admin';
  query?: Record<string, string | string[]>;
  /** Appended to the URL as written (raw query strings the query option would encode). */
  rawQuery?: string;
  /** An object is sent as JSON; a string as written, with `contentType`. */
  payload?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

interface ZodDef {
  type: string;
  [key: string]: unknown;
}

function defOf(schema: unknown): ZodDef {
  return (schema as { _zod: { def: ZodDef } })._zod.def;
}

interface CheckDef {
  check: string;
  value?: number | bigint;
  inclusive?: boolean;
  minimum?: number;
  maximum?: number;
  format?: string;
  pattern?: RegExp;
}

function checksOf(def: ZodDef): CheckDef[] {
  const checks = (def.checks as { _zod: { def: CheckDef } }[] | undefined) ?? [];
  return checks.map((c) => c._zod.def);
}

/** Strings the fuzzer throws at every text field. */
export const hostileStrings: readonly string[] = [
  "' OR '1'='1",
  "'; drop table users; --",
  '1; select pg_sleep(10)',
  '" or ""="',
  '\\',
  '$1',
  '%s%s%s%n',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '{{7*7}}${7*7}',
  '__proto__',
  'constructor',
  '../../../../etc/passwd',
  '\u0000',
  'a\u0000b',
  '\u202eRTL override\u202c',
  '\u200f\u05e9\u05dc\u05d5\u05dd',
  '\ud800',
  '\udfff\ud800',
  '😀👨‍👩‍👧‍👦',
  'Ａｄｍｉｎ',
  'İı',
  '\r\nSet-Cookie: x=1',
  ' ',
  '',
  '\t\n',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-0',
  '0x10',
  '1e400',
  '0.0000000000000000001',
  '1.00000000000000000000001',
  '99999999999999999999999999999999999999',
  '-1',
  '18446744073709551616',
  'a'.repeat(10_000),
  '😀'.repeat(3_000),
  '0x' + 'f'.repeat(40),
  '0x' + '0'.repeat(40),
];

/** Numbers (and number-like strings) the fuzzer throws at every numeric field. */
export const hostileNumbers: readonly unknown[] = [
  1e308,
  -1e308,
  2 ** 64,
  2 ** 53 + 1,
  -(2 ** 63),
  2 ** 31,
  -0,
  0,
  -1,
  0.5,
  Number.MIN_VALUE,
  'NaN',
  'Infinity',
  '-Infinity',
  '1e400',
  '1e-400',
  '0.1234567890123456789',
  '12345678901234567890.1234567890123456789',
  '18446744073709551616',
  '-0',
  '00001',
  '1_000',
  '+1',
  ' 1',
  '1 ',
];

/** Values of the wrong JSON type for any field. */
export const wrongTypes: readonly unknown[] = [null, true, false, [], [1, 2], {}, { $gt: '' }, { __proto__: { isAdmin: true } }, 'x', 0, 1.5];

/** Arbitrary JSON values, shallow and small. */
const smallJson = fc.jsonValue({ maxDepth: 2, depthSize: 'xsmall' });

/** Decimal amounts as the wallet takes them, mostly small so a little funding reaches real code. */
const amountString = fc.oneof(
  fc.constantFrom('0.000000000000000001', '0.01', '0.1', '1', '2.5', '10', '100', '1000000'),
  fc.integer({ min: 0, max: 50 }).map(String),
  fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 999_999 })).map(([i, d]) => `${i}.${d}`),
);

const epochMs = { min: Date.parse('2020-01-01T00:00:00Z'), max: Date.parse('2035-01-01T00:00:00Z') };

/** An arbitrary for values the schema should accept (valid-looking: refinements may still refuse). */
export function arbitraryOf(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 12) return smallJson;
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      const required: string[] = [];
      for (const [key, field] of Object.entries(shape)) {
        const t = defOf(field).type;
        if (t === 'optional' || t === 'default') model[key] = arbitraryOf(defOf(field).innerType, depth + 1);
        else {
          model[key] = arbitraryOf(field, depth + 1);
          required.push(key);
        }
      }
      return fc.record(model, { requiredKeys: required });
    }
    case 'string':
      return stringArbitrary(def);
    case 'number':
      return numberArbitrary(def);
    case 'boolean':
      return fc.boolean();
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
    case 'optional':
    case 'default':
      return fc.option(arbitraryOf(def.innerType, depth + 1), { nil: undefined, freq: 5 });
    case 'nullable':
      return fc.option(arbitraryOf(def.innerType, depth + 1), { nil: null, freq: 5 });
    case 'union':
      return fc.oneof(...(def.options as unknown[]).map((o) => arbitraryOf(o, depth + 1)));
    case 'pipe': {
      // A pipe whose output is a plain checked value (queryInt: digits → number in a range) is
      // generated from its output, which its input also accepts; otherwise from its input.
      const out = defOf(def.out).type;
      const source = ['number', 'string', 'enum', 'boolean', 'literal'].includes(out) ? def.out : def.in;
      return arbitraryOf(source, depth + 1);
    }
    case 'unknown':
    case 'any':
      // The contracts' only unknown inputs are amounts (amountSchema) and free JSON.
      return fc.oneof({ arbitrary: amountString, weight: 4 }, { arbitrary: smallJson, weight: 1 });
    case 'array': {
      const checks = checksOf(def);
      const min = checks.find((c) => c.check === 'min_length')?.minimum ?? 0;
      const max = Math.min(checks.find((c) => c.check === 'max_length')?.maximum ?? 5, Math.max(min, 5));
      return fc.array(arbitraryOf(def.element, depth + 1), { minLength: min, maxLength: max });
    }
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 8 }), arbitraryOf(def.valueType, depth + 1), { maxKeys: 3 });
    default:
      return smallJson;
  }
}

function stringArbitrary(def: ZodDef): fc.Arbitrary<string> {
  const checks = checksOf(def);
  const format = (def.format as string | undefined) ?? checks.find((c) => c.check === 'string_format' && c.format !== 'regex')?.format;
  if (format === 'datetime') return fc.integer(epochMs).map((ms) => new Date(ms).toISOString());
  if (format === 'uuid') return fc.uuid();
  const pattern = checks.find((c) => c.check === 'string_format' && c.pattern)?.pattern;
  const min = checks.find((c) => c.check === 'min_length')?.minimum ?? 0;
  const max = checks.find((c) => c.check === 'max_length')?.maximum;
  // A pattern with a length bound beside it: a string too long or short is cut or padded rather
  // than filtered out (a filter that rarely passes would stall the generator).
  if (pattern)
    return fc.stringMatching(pattern, { size: 'small' }).map((s) => (max !== undefined && s.length > max ? s.slice(0, max) : s.padEnd(min, s.at(-1) ?? 'a')));
  return fc.string({ minLength: min, maxLength: Math.min(max ?? 40, Math.max(min, 40)), unit: fc.constantFrom('a', 'b', '1', ' ', 'é', '中', '-', '_') });
}

function numberArbitrary(def: ZodDef): fc.Arbitrary<number> {
  const checks = checksOf(def);
  // z.int() is itself the format (its def carries it); z.number().check(z.int()) lists it as a check.
  const isIntFormat = (format: unknown) => format === 'safeint' || format === 'int32';
  const isInt = isIntFormat(def.format) || checks.some((c) => c.check === 'number_format' && isIntFormat(c.format));
  let lo = -Number.MAX_SAFE_INTEGER;
  let hi = Number.MAX_SAFE_INTEGER;
  for (const c of checks) {
    const v = Number(c.value);
    if (c.check === 'greater_than') lo = Math.max(lo, c.inclusive || !isInt ? v : v + 1);
    if (c.check === 'less_than') hi = Math.min(hi, c.inclusive || !isInt ? v : v - 1);
  }
  if (!isInt) return fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });
  // Mostly near the low bound (ids 1..20 hit real rows), sometimes anywhere in range.
  return fc.oneof(
    { arbitrary: fc.integer({ min: lo, max: Math.min(hi, Math.max(lo, 0) + 20) }), weight: 3 },
    { arbitrary: fc.integer({ min: lo, max: hi }), weight: 1 },
  );
}

/** A value of the wrong shape or hostile content, for any field. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom(...hostileStrings), weight: 4 },
  { arbitrary: fc.constantFrom(...hostileNumbers), weight: 3 },
  { arbitrary: fc.constantFrom(...wrongTypes), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }), weight: 1 },
);

/** Query strings carry text: numbers and booleans as written, arrays as repeated keys. */
function toQuery(input: unknown): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return query;
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    query[key] = Array.isArray(value) ? value.map(queryText) : queryText(value);
  }
  return query;
}

function queryText(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

type Mutation = { op: 'replace'; at: number; value: unknown } | { op: 'drop'; at: number } | { op: 'extra'; key: string; value: unknown };

const extraKeys = ['__proto__', 'constructor', 'prototype', 'user_id', 'userId', 'role', 'is_admin', 'status', 'id', 'amount', '$where', 'a'.repeat(300)];

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('replace' as const), at: fc.nat(), value: hostileValue }), weight: 6 },
  { arbitrary: fc.record({ op: fc.constant('drop' as const), at: fc.nat() }), weight: 2 },
  {
    arbitrary: fc.record({
      op: fc.constant('extra' as const),
      key: fc.oneof(fc.constantFrom(...extraKeys), fc.string({ maxLength: 10 })),
      value: hostileValue,
    }),
    weight: 2,
  },
);

function applyMutations(input: unknown, mutations: Mutation[]): Record<string, unknown> {
  const out: Record<string, unknown> = typeof input === 'object' && input !== null && !Array.isArray(input) ? { ...input } : {};
  for (const m of mutations) {
    const keys = Object.keys(out);
    if (m.op === 'extra') Object.defineProperty(out, m.key, { value: m.value, enumerable: true, configurable: true, writable: true });
    else if (keys.length === 0) continue;
    else if (m.op === 'drop') delete out[keys[m.at % keys.length]!];
    else out[keys[m.at % keys.length]!] = m.value;
  }
  return out;
}

/** A JSON text nested `depth` levels deep (arrays or objects). */
export function deepJson(depth: number, asObject: boolean): string {
  return asObject ? '{"a":'.repeat(depth) + '1' + '}'.repeat(depth) : '['.repeat(depth) + ']'.repeat(depth);
}

const megabyte = 1024 * 1024;

/** Whole-request attacks that do not depend on the contract. */
function rawAttacks(isGet: boolean, valid: fc.Arbitrary<unknown>): fc.Arbitrary<Omit<FuzzRequest, 'caller'>> {
  const body = (kind: string, payload: string, contentType = 'application/json') => ({ kind, payload, contentType });
  const common: fc.Arbitrary<Omit<FuzzRequest, 'caller'>>[] = [
    fc.constant(body('body-1mb-json', `{"a":"${'x'.repeat(megabyte)}"}`)),
    fc.constant(body('body-1mb-text', 'x'.repeat(megabyte), 'text/plain')),
    fc.constantFrom(body('deep-json-array', deepJson(10_000, false)), body('deep-json-object', deepJson(10_000, true))),
    fc.constantFrom(
      body('malformed-json', '{"a":'),
      body('malformed-json', '{"a":1,}'),
      body('malformed-json', "{'a':1}"),
      body('malformed-json', '\u0000'),
      body('malformed-json', '{"__proto__":{"polluted":1}}'),
      body('malformed-json', '{"constructor":{"prototype":{"polluted":1}}}'),
      body('empty-json', ''),
    ),
    fc.constantFrom('[]', '"x"', '1', 'null', 'true', '[{}]', '1e400').map((p) => body('non-object-json', p)),
    valid.map((v) => body('wrong-content-type', JSON.stringify(v ?? {}), 'text/plain')),
    valid.map((v) => body('wrong-content-type', new URLSearchParams(toQuery(v) as Record<string, string>).toString(), 'application/x-www-form-urlencoded')),
    fc.constant(body('wrong-content-type', '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--\r\n', 'multipart/form-data; boundary=b')),
    valid.map((v) => body('wrong-content-type', JSON.stringify(v ?? {}), 'application/json; charset=utf-7')),
    fc
      .constantFrom<
        Record<string, string>
      >({ authorization: "' OR 1=1 --" }, { authorization: 'Bearer ' + 'a'.repeat(10_000) }, { authorization: '\u202e' }, { 'idempotency-key': "'; drop table ledger_flows; --" }, { 'idempotency-key': 'a'.repeat(500) }, { lang: '../../etc/passwd' }, { lang: 'x'.repeat(10_000) }, { 'x-forwarded-for': '1.2.3.4, 5.6.7.8' }, { 'content-length': '1' })
      .chain((headers) => valid.map((v) => ({ kind: 'hostile-header', headers, ...(isGet ? { query: toQuery(v) } : { payload: v ?? {} }) }))),
  ];
  const queryAttacks: fc.Arbitrary<Omit<FuzzRequest, 'caller'>>[] = [
    fc
      .constantFrom(
        'id=1&id=2',
        'id[]=1',
        'id[a]=1',
        'page=1&page=2&page_size=1&page_size=50',
        'a=' + 'x'.repeat(10_000),
        '%00=%00',
        '%ZZ',
        '__proto__[x]=1',
        'id=1e400',
        'id=-0',
        'id=NaN',
        'page=18446744073709551616',
      )
      .map((rawQuery) => ({ kind: 'raw-query', rawQuery })),
  ];
  return fc.oneof(...common, ...queryAttacks);
}

/**
 * Requests for one route: valid-looking inputs from the contract, the same with hostile fields,
 * and whole-request attacks, in the given proportions.
 */
export function requestArbitrary(input: z.core.$ZodType | undefined, method: 'GET' | 'POST'): fc.Arbitrary<Omit<FuzzRequest, 'caller'>> {
  const isGet = method === 'GET';
  const valid = input ? arbitraryOf(input) : fc.constant(undefined);
  const send =
    (kind: string) =>
    (v: unknown): Omit<FuzzRequest, 'caller'> =>
      isGet ? { kind, query: toQuery(v) } : { kind, payload: v ?? {} };
  // At least one field replaced by a hostile value, then maybe fields dropped or added.
  const replace = fc.record({ op: fc.constant('replace' as const), at: fc.nat(), value: hostileValue });
  const mutated = fc.tuple(valid, replace, fc.array(mutation, { maxLength: 2 })).map(([v, first, ms]) => applyMutations(v, [first, ...ms]));
  // Most valid-looking requests reach the handler and the database (a millisecond or more each on
  // PGlite); most hostile ones are refused before it (a fifth of that): this mix keeps a route's
  // 1,000 requests within the file's time budget while a few hundred reach real code.
  return fc.oneof(
    { arbitrary: valid.map(send('valid')), weight: 2 },
    { arbitrary: mutated.map(send('hostile-field')), weight: 5 },
    {
      arbitrary: isGet
        ? mutated.map((v) => ({ kind: 'get-with-body', query: toQuery(v), payload: JSON.stringify(v), contentType: 'application/json' }))
        : valid.map((v) => ({ kind: 'post-as-query', query: toQuery(v) })),
      weight: 1,
    },
    { arbitrary: rawAttacks(isGet, valid), weight: 4 },
  );
}
