import { sql, type SQL } from 'drizzle-orm';

/** The values as one parameter each, comma-separated: the inside of `in (…)`. Callers keep lists non-empty. */
export function sqlList(values: readonly (string | number)[]): SQL {
  return sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );
}
