// Column helpers every module's schema.ts shares (docs/architecture.md "Table ownership").
import { bigint, numeric, timestamp } from 'drizzle-orm/pg-core';

export const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/** Amounts are numeric(78,0) base units (10^-18 of a token), read and written as bigint in code. */
export const units = (name: string) => numeric(name, { precision: 78, scale: 0, mode: 'bigint' });

/** Power is counted in hundredths of a P (cP) as bigint (docs/economy.md). */
export const power = (name: string) => bigint(name, { mode: 'bigint' });

export const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
