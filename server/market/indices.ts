/**
 * Market indices of the replayed day: the TAIEX (發行量加權股價指數) of the date the whole
 * market replays, its previous close, labelled with that date. No TPEx index data exist in the
 * repository (PROVENANCE §3 has only the TAIEX), so no TPEx index is shown.
 *
 * Source: server/db/seed-data/index/taiex_daily_2025_2026.csv (PROVENANCE §3.2: TWSE FMTQIK /
 * MI_5MINS_HIST closes). Index points are carried in hundredths like prices (`lastMinor` 2138313 =
 * 21,383.13 points). The previous close is the preceding row's close when that row is the
 * previous trading day, otherwise `close − change` of the row itself.
 *
 * Intraday (`estimate: true`, while the session runs): there are no intraday index data for the
 * window, so the value is derived from the replayed market and pinned to the official close:
 *   value(t) = prevClose × (1 + R(t)) + (close − prevClose × (1 + R_end)) × f(t)
 * where R(t) is the volume-weighted mean return of the TWSE instruments against their reference
 * (weights: reference × the day's real volume; the TAIEX's market-cap weights are not in the
 * data), R_end the same at the real closes, and f(t) the elapsed fraction of the session. At
 * 09:00 (f = 0, R = the opening returns) it is the market's opening move; at 13:30 it equals the
 * official close exactly. The screen labels it as an estimate.
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

/** Official TAIEX closes by date: close and previous close (points × 100). */
export type TaiexCloses = Map<string, { closeMinor: number; prevCloseMinor: number }>;

/** Reads the TAIEX file: every dated close with its previous close. */
export async function loadTaiexCloses(file: string = TAIEX_FILE): Promise<TaiexCloses> {
  const rows = (await readCsvRecords(file))
    .filter((r) => r.close)
    .sort((a, b) => (a.date! < b.date! ? -1 : 1));
  const out: TaiexCloses = new Map();
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const prev = rows[i - 1];
    let prevClose: number | null = null;
    if (prev && prev.date === previousTradingDay(r.date!)) prevClose = toMinor(prev.close!);
    else if (r.change) prevClose = toMinor(r.close!) - toMinor(r.change.replace(/^\+/, ''));
    if (prevClose !== null) out.set(r.date!, { closeMinor: toMinor(r.close!), prevCloseMinor: prevClose });
  }
  return out;
}

/** The latest official close in the file as an IndexItem (empty list if unusable): the live/stress label. */
export async function loadIndices(file: string = TAIEX_FILE): Promise<IndexItem[]> {
  const closes = await loadTaiexCloses(file);
  const dates = [...closes.keys()].sort();
  const last = dates[dates.length - 1];
  return last ? [taiexItem(last, closes.get(last)!.closeMinor, closes.get(last)!.prevCloseMinor)] : [];
}

/** A TAIEX IndexItem. */
export function taiexItem(
  date: string,
  lastMinor: number,
  prevCloseMinor: number,
  estimate?: boolean,
): IndexItem {
  return {
    code: 'TAIEX',
    name: '發行量加權股價指數',
    lastMinor,
    prevCloseMinor,
    date,
    ...(estimate === undefined ? {} : { estimate }),
  };
}

/** One TWSE instrument's contribution to the estimate: now, reference, real close, weight. */
export interface IndexMember {
  lastMinor: number;
  referenceMinor: number;
  closeMinor: number;
  weight: number;
}

/**
 * The intraday estimate (module docstring), points × 100, rounded; `elapsed` in 0…1. Returns the
 * official close when elapsed ≥ 1 or when no member has a weight.
 */
export function taiexEstimate(
  official: { closeMinor: number; prevCloseMinor: number },
  members: Iterable<IndexMember>,
  elapsed: number,
): number {
  let w = 0;
  let rNow = 0;
  let rEnd = 0;
  for (const m of members) {
    if (m.weight <= 0 || m.referenceMinor <= 0) continue;
    w += m.weight;
    rNow += m.weight * (m.lastMinor / m.referenceMinor - 1);
    rEnd += m.weight * (m.closeMinor / m.referenceMinor - 1);
  }
  if (elapsed >= 1 || w === 0) return official.closeMinor;
  const f = Math.max(0, elapsed);
  const p = official.prevCloseMinor;
  return Math.round(p * (1 + rNow / w) + (official.closeMinor - p * (1 + rEnd / w)) * f);
}
