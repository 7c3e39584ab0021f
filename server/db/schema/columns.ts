/**
 * Column helpers shared by the schema files of every area (not re-exported by the index): money
 * columns, the `created_at` column and the CHECK expression of a state column.
 */
import { sql, type SQL } from 'drizzle-orm';
import { type AnyPgColumn, bigint, timestamp } from 'drizzle-orm/pg-core';

/** A money column: bigint minor units (TWD: 1 NT$ = 100), read and written as a JS number. */
export const money = (name: string) => bigint(name, { mode: 'number' });

/** `created_at`: timestamptz, not null, defaulting to the insert's time. */
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * `column IN ('a', 'b', …)` for a CHECK constraint. The values are the contract's identifiers,
 * asserted plain (letters only) because they are spliced into the SQL text.
 */
export function oneOf(column: AnyPgColumn, values: readonly string[]): SQL {
  for (const v of values) if (!/^[A-Za-z]+$/.test(v)) throw new Error(`state value not an identifier: ${v}`);
  return sql`${column} in (${sql.raw(values.map((v) => `'${v}'`).join(', '))})`;
}
