import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/rows.ts';
import type { Db, Tx } from '../../db/client.ts';
import { appSettings } from './schema.ts';

export const settingKeys = { nodeDeadline: 'node_deadline' } as const;

/**
 * Reads the JSON text and parses it here: drizzle's jsonb mapping parses strings a second time, so a
 * stored string such as "0.5" would come back as the number 0.5.
 */
export async function readSetting(db: Db, key: string): Promise<unknown> {
  const rows = rowsOf<{ value: string }>(await db.execute(sql`select value::text as value from ${appSettings} where key = ${key}`));
  const text = rows[0]?.value;
  return text === undefined ? undefined : (JSON.parse(text) as unknown);
}

/** Writes the value only when the key has none, so seeds never overwrite an operator's change. */
export async function insertSettingIfAbsent(db: Db | Tx, key: string, value: unknown): Promise<void> {
  await db.insert(appSettings).values({ key, value }).onConflictDoNothing();
}

/**
 * Adds one to a counter setting (1 when absent) and answers the new value, atomically: the market's
 * writer epoch (a fencing token) is one.
 */
export async function incrementCounterSetting(db: Db | Tx, key: string): Promise<number> {
  const rows = rowsOf<{ value: string }>(
    await db.execute(sql`
      insert into app_settings (key, value) values (${key}, '1'::jsonb)
      on conflict (key) do update set value = to_jsonb((app_settings.value::text)::bigint + 1), updated_at = now()
      returning value::text as value`),
  );
  return Number(rows[0]?.value);
}
