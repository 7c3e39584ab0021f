/**
 * The exchange's English short names (instruments.name_en, e.g. 2330 → 'TSMC') added to API rows
 * that name an instrument by symbol, for responses not built from a join on instruments.
 */
import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { instruments } from '../../db/schema';

/**
 * `rows` with each one's English short name added as `nameEn`: null when the exchange publishes
 * none (ETFs) or the symbol is no instrument here (a company not listed yet). One query in all.
 */
export async function withNamesEn<T extends { symbol: string }>(
  db: Db,
  rows: readonly T[],
): Promise<Array<T & { nameEn: string | null }>> {
  const symbols = [...new Set(rows.map((r) => r.symbol))];
  const found = symbols.length
    ? await db
        .select({ symbol: instruments.symbol, nameEn: instruments.nameEn })
        .from(instruments)
        .where(inArray(instruments.symbol, symbols))
    : [];
  const bySymbol = new Map(found.map((f) => [f.symbol, f.nameEn]));
  return rows.map((r) => ({ ...r, nameEn: bySymbol.get(r.symbol) ?? null }));
}

/** One row with its English short name added as `nameEn` (withNamesEn). */
export async function withNameEn<T extends { symbol: string }>(
  db: Db,
  row: T,
): Promise<T & { nameEn: string | null }> {
  return (await withNamesEn(db, [row]))[0]!;
}
