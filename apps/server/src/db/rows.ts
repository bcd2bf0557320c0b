/** drizzle's execute() answers `{ rows }` on both drivers; this reads them with a row type. */
export function rowsOf<T>(result: unknown): T[] {
  const rows = (result as { rows?: unknown }).rows;
  if (!Array.isArray(rows)) throw new Error('query result has no rows array');
  return rows as T[];
}
