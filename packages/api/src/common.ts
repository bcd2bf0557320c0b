import { z } from 'zod/mini';
import { errorReasons } from './errors.ts';
import { successCode } from './http.ts';

export { authHeader, defaultLang, idempotencyHeader, langHeader, langs, parseLang, successCode, type Lang } from './http.ts';

/** The envelope every JSON answer travels in: {code, msg, data}; code 200 is success. */
export function envelope<T extends z.ZodMiniType>(data: T) {
  return z.object({ code: z.literal(successCode), msg: z.string(), data });
}

export const errorEnvelope = z.object({
  code: z.int(),
  msg: z.string(),
  data: z.null(),
  reason: z.enum(errorReasons),
  /** Field-level problems for validation failures: path → translated message. */
  fields: z.optional(z.record(z.string(), z.string())),
  /** Values the message names (e.g. the minimum amount), for a client that words it itself. */
  params: z.optional(z.record(z.string(), z.string())),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

export const pageSizeMax = 50;
export const pageSizeDefault = 10;

/**
 * A whole number from a query string: digits only, so "1e3", "0x10", " 5" and "5.0" are refused
 * rather than coerced into something the caller did not write.
 */
export function queryInt(min: number, max: number) {
  return z.pipe(z.union([z.int(), z.pipe(z.string().check(z.regex(/^[0-9]{1,15}$/)), z.transform(Number))]), z.int().check(z.gte(min), z.lte(max)));
}

export const pageQuery = z.object({
  page: z._default(queryInt(1, 100_000), 1),
  page_size: z._default(queryInt(1, pageSizeMax), pageSizeDefault),
});
export type PageQuery = z.infer<typeof pageQuery>;

export function paged<T extends z.ZodMiniType>(item: T) {
  return z.object({
    list: z.array(item),
    total: z.int().check(z.gte(0)),
    page: z.int().check(z.gte(1)),
    page_size: z.int().check(z.gte(1)),
  });
}

export const idQuery = z.object({ id: queryInt(1, 2 ** 31 - 1) });

/** A 0x-prefixed 20-byte hex address; case is normalised by the server. */
export const addressSchema = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/));
export const isoDate = z.string();
