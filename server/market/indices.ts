/**
 * Market indices shown beside the quotes: the TAIEX (發行量加權股價指數) latest official daily
 * close and the close before it, labelled with the date. No simulated index is produced.
 *
 * Source: server/db/seed-data/index/taiex_daily_2025_2026.csv (PROVENANCE §3.2: TWSE FMTQIK /
 * MI_5MINS_HIST closes, 2025-01-02 → 2026-03-13 and 2026-07-01 → 2026-07-31). Index points are
 * carried in hundredths like prices (`lastMinor` 4311975 = 43,119.75 points). The previous close
 * is the preceding row's close, and is only used when that row is the previous trading day
 * (the file has a gap 2026-03-16 → 2026-06-30); otherwise `close − change` from the row itself.
 */
import type { z } from 'zod';
import type { indexItemSchema } from '../../contract/market';
import { toMinor } from '../../contract/money';
import { readCsvRecords, seedDataPath } from './csv';
import { previousTradingDay } from './calendar';

/** contract/market.ts indexItemSchema: code, name, lastMinor / prevCloseMinor (points × 100), date. */
export type IndexItem = z.infer<typeof indexItemSchema>;

/** The bundled TAIEX daily file (server/db/seed-data/index; sources in PROVENANCE.md). */
export const TAIEX_FILE = seedDataPath('index', 'taiex_daily_2025_2026.csv');

/** Reads the TAIEX file and returns the latest close as an IndexItem (empty list if unusable). */
export async function loadIndices(file: string = TAIEX_FILE): Promise<IndexItem[]> {
  const rows = (await readCsvRecords(file))
    .filter((r) => r.close)
    .sort((a, b) => (a.date! < b.date! ? -1 : 1));
  const last = rows[rows.length - 1];
  if (!last) return [];
  const prev = rows[rows.length - 2];
  let prevClose: number | null = null;
  if (prev && prev.date === previousTradingDay(last.date!)) prevClose = toMinor(prev.close!);
  else if (last.change) prevClose = toMinor(last.close!) - toMinor(last.change.replace(/^\+/, ''));
  if (prevClose === null) return [];
  return [
    {
      code: 'TAIEX',
      name: '發行量加權股價指數',
      lastMinor: toMinor(last.close!),
      prevCloseMinor: prevClose,
      date: last.date!,
    },
  ];
}
