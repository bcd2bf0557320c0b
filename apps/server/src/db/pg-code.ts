/**
 * The SQLSTATE of a database error, wherever the driver put it: PostgreSQL (postgres.js) and PGlite
 * both set `code`, but drizzle wraps the driver's error, so the cause chain is walked.
 */
export function pgCode(error: unknown): string | undefined {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}
