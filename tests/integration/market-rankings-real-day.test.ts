/**
 * The acceptance "the gainers, losers and turnover lists of a finished replayed day equal a
 * ranking recomputed from the raw file" (server/modules/market/rankings.ts over the whole
 * market, feed.ts, reference.ts), on PGlite and PostgreSQL with the full-market import.
 *
 * The expected lists are computed here from the exchange files directly (tw_daily_*.csv.gz, the
 * ex-rights file, splits.csv, codes_*.csv), not through the product's code: reference = the
 * exchange's ex-rights reference on an ex date, else the previous traded close in the file;
 * estimated references (no earlier close, a split whose published reference the table lacks, a
 * share's first day after a suspension outside ±10 % of its last close: a capital change) are
 * left out of gainers and losers; ties by code. Days:
 * - 2025-06-10: 6918 愛派司's listing day (no earlier close: its +17.39 % against its own open
 *   must not rank it first);
 * - 2025-06-11: 00663L back from its halt and 1:7 split (24.31 = 170.15 ÷ 7 is an estimate, it
 *   traded at 27.49–27.60), 4806 after a capital change;
 * - 2025-07-10: 5345 after a capital change; 6589 (TPEx in 2025, TWSE in the directory) and 6423
 *   (TWSE innovation board in 2025, TPEx in the directory) on their exchange of the day.
 * While the session runs, the same lists are the practice venue's simulated figures (`final`
 * false); from the closing print on they are the real day's (`final` true).
 */
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceLimitsMinor } from '../../contract/market-rules';
import { toMinor } from '../../contract/money';
import type { Quote } from '../../contract/market';
import type { Database } from '../../server/db/client';
import { importMarketData } from '../../server/market/import';
import { SESSION_MS } from '../../server/market/calendar';
import { createClock } from '../../server/market/clock';
import { parseCsv, readCsvRecordsSync, seedDataPath, toRecords } from '../../server/market/csv';
import { createMarketFeed, type MarketFeed } from '../../server/market/feed';
import { loadWindowDates, replayWindow, type ReplayWindow } from '../../server/market/window';
import { createRankings } from '../../server/modules/market/rankings';
import { freshDatabase } from './harness';

const FILE = seedDataPath('full-market', 'tw_daily_2025-04-02_2025-07-18.csv.gz');
const EX_RIGHTS = seedDataPath('full-market', 'ex_rights_2025-04-01_2025-07-22.csv');
const SPLITS = seedDataPath('full-market', 'splits.csv');
const CODES = seedDataPath('full-market', 'codes_2025-04-02_2025-07-18.csv');

interface FileRow {
  close: number;
  high: number;
  low: number;
  volume: number;
  turnover: number;
}

/** The raw file by date → code, and each code's traded dates ascending. */
const byDate = new Map<string, Map<string, FileRow>>();
const datesOf = new Map<string, string[]>();
let fileDates: string[] = [];

let database: Database;
let drop: () => Promise<void>;
let win: ReplayWindow;

beforeAll(async () => {
  const rows = toRecords(parseCsv(gunzipSync(readFileSync(FILE)).toString('utf8')), 'tw_daily');
  for (const r of rows) {
    let m = byDate.get(r.date!);
    if (!m) byDate.set(r.date!, (m = new Map()));
    m.set(r.code!, {
      close: toMinor(r.close!),
      high: toMinor(r.high!),
      low: toMinor(r.low!),
      volume: Number(r.volume_shares),
      turnover: toMinor(r.turnover_twd!),
    });
    let d = datesOf.get(r.code!);
    if (!d) datesOf.set(r.code!, (d = []));
    d.push(r.date!);
  }
  fileDates = [...byDate.keys()].sort();
  for (const d of datesOf.values()) d.sort();
  ({ database, drop } = await freshDatabase());
  await importMarketData(database.db);
  win = replayWindow(await loadWindowDates(database.db));
}, 900_000);
afterAll(async () => drop?.());

const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The day's expected references and estimates, from the files only (see the module docstring). */
function expectedDay(day: string) {
  const exRef = new Map<string, number>();
  for (const x of readCsvRecordsSync(EX_RIGHTS))
    if (x.ex_date === day) exRef.set(x.code!, toMinor(x.reference_price!));
  const splits = new Map<string, string | undefined>();
  for (const x of readCsvRecordsSync(SPLITS))
    if (x.resume_date === day) splits.set(x.code!, x.reference_price);
  const prevDay = fileDates[fileDates.indexOf(day) - 1]!;
  const today = byDate.get(day)!;
  const ref = new Map<string, number>();
  const estimated = new Set<string>();
  for (const [code, row] of today) {
    const earlier = datesOf.get(code)!.filter((d) => d < day);
    const prev = earlier.at(-1);
    if (exRef.has(code)) {
      ref.set(code, exRef.get(code)!);
      continue;
    }
    if (splits.has(code)) {
      const published = splits.get(code);
      if (published) ref.set(code, toMinor(published));
      else estimated.add(code);
      continue;
    }
    if (!prev) {
      estimated.add(code);
      continue;
    }
    const prevClose = byDate.get(prev)!.get(code)!.close;
    const share = !code.startsWith('0');
    if (share && prev !== prevDay) {
      const band = priceLimitsMinor(prevClose, 'stock');
      if (row.low < band.downMinor || row.high > band.upMinor) {
        estimated.add(code);
        continue;
      }
    }
    ref.set(code, prevClose);
  }
  const ranked = (sign: 1 | -1) =>
    [...ref]
      .map(([code, r]) => ({ code, k: (today.get(code)!.close - r) / r }))
      .sort((a, b) => sign * (b.k - a.k) || byCode(a.code, b.code))
      .map((x) => x.code);
  const by = (f: (r: FileRow) => number) =>
    [...today].sort(([a, ra], [b, rb]) => f(rb) - f(ra) || byCode(a, b)).map(([code]) => code);
  return {
    gainers: ranked(1),
    losers: ranked(-1),
    turnover: by((r) => r.turnover),
    volume: by((r) => r.volume),
    estimated,
    today,
  };
}

/** The exchange of each code on `day` from the window's codes file (first…last date rows). */
function marketsOn(day: string): Map<string, 'TWSE' | 'TPEx'> {
  const out = new Map<string, 'TWSE' | 'TPEx'>();
  for (const r of readCsvRecordsSync(CODES))
    if (r.first_date! <= day && day <= r.last_date!) out.set(r.code!, r.market === 'twse' ? 'TWSE' : 'TPEx');
  return out;
}

const SPEED = 60;

/** A feed without timer on `day` at market offset `offsetMs` after 09:00; the wall clock to move it. */
async function feedOn(
  day: string,
  offsetMs: number,
): Promise<{ feed: MarketFeed; wall: { ms: number }; k: number }> {
  const k = win.replayDayIndexes.indexOf(win.dates.indexOf(day));
  const wall = { ms: 0 };
  const clock = createClock({ mode: 'replay', speed: SPEED, now: () => wall.ms });
  wall.ms = clock.wallAt(k, offsetMs);
  const feed = createMarketFeed({
    db: database.db,
    clock,
    seed: 5,
    buildTradesPerTick: Number.MAX_SAFE_INTEGER,
  });
  await feed.start({ timer: false });
  return { feed, wall, k };
}

describe('a finished replayed day ranks as the exchange files do', () => {
  for (const day of ['2025-06-10', '2025-06-11', '2025-07-10']) {
    it(`${day}: gainers, losers, turnover and volume equal the file's; estimated references left out`, async () => {
      // 10:30: the session runs, the figures are the practice venue's own.
      const { feed, wall } = await feedOn(day, 90 * 60_000);
      const rankings = createRankings({ feed, now: () => wall.ms });
      const live = rankings.snapshot();
      expect(live.replayDate).toBe(day);
      expect(live.final).toBe(false);
      const exp = expectedDay(day);
      const liveQuotes = feed.listQuotes().filter((q) => q.traded && q.volumeShares > 0);
      const simulated = liveQuotes.filter((q) => q.turnoverMinor !== exp.today.get(q.symbol)?.turnover);
      expect(simulated.length, 'intraday turnover is the simulated running sum').toBeGreaterThan(1000);

      // 13:40: the closing print is out; the lists are the real day's.
      wall.ms += ((SESSION_MS - 90 * 60_000 + 10 * 60_000) / SPEED) | 0;
      feed.tick();
      const snap = rankings.snapshot();
      expect(snap.final).toBe(true);
      const quotes = new Map(feed.listQuotes().map((q) => [q.symbol, q]));
      const traded = [...quotes.values()].filter((q) => q.traded);
      expect(new Set(traded.map((q) => q.symbol))).toEqual(new Set(exp.today.keys()));
      for (const q of traded) {
        const row = exp.today.get(q.symbol)!;
        expect([q.lastMinor, q.volumeShares, q.turnoverMinor], q.symbol).toEqual([
          row.close,
          row.volume,
          row.turnover,
        ]);
      }
      const flagged = new Set(traded.filter((q) => q.referenceEstimated).map((q) => q.symbol));
      expect(flagged).toEqual(exp.estimated);

      const list = (sort: 'gainers' | 'losers' | 'turnover' | 'volume') => rankings.list(sort, {}).symbols;
      const untraded = [...quotes.values()].filter((q) => !q.traded).map((q) => q.symbol);
      for (const sort of ['gainers', 'losers'] as const) {
        const head = exp[sort];
        expect(list(sort).slice(0, head.length), sort).toEqual(head);
        // Estimated and untraded instruments follow, in code order, never among the ranked.
        expect(list(sort).slice(head.length), sort).toEqual([...exp.estimated, ...untraded].sort(byCode));
      }
      for (const sort of ['turnover', 'volume'] as const)
        expect(list(sort).slice(0, exp[sort].length), sort).toEqual(exp[sort]);
    }, 600_000);
  }

  it('6918 on its listing day, 00663L after its split, 4806 and 5345 after capital changes: flagged, not ranked', async () => {
    expect(expectedDay('2025-06-10').estimated.has('6918')).toBe(true);
    expect([...expectedDay('2025-06-11').estimated].sort()).toEqual(['00663L', '4806']);
    expect(expectedDay('2025-07-10').estimated.has('5345')).toBe(true);
    const { feed, wall } = await feedOn('2025-06-11', SESSION_MS + 10 * 60_000);
    const q = feed.quote('00663L') as Quote;
    expect(q).toMatchObject({ prevCloseMinor: 2_431, referenceEstimated: true, lastMinor: 2_757 });
    const gainers = createRankings({ feed, now: () => wall.ms }).list('gainers', {}).symbols;
    // 27.57 against 24.31 would be +13.4 %, the day's first; it is not among the ranked.
    expect(gainers.indexOf('00663L')).toBeGreaterThanOrEqual(expectedDay('2025-06-11').gainers.length);
  }, 600_000);

  it('exchange as of the replayed date: breadth and the market filter put 6589 on TPEx and 6423 on TWSE', async () => {
    const day = '2025-07-10';
    const { feed, wall } = await feedOn(day, SESSION_MS + 10 * 60_000);
    expect(feed.instruments().find((i) => i.symbol === '6589')?.market).toBe('TWSE');
    expect(feed.instruments().find((i) => i.symbol === '6423')?.market).toBe('TPEx');
    expect([feed.marketOf('6589'), feed.marketOf('6423')]).toEqual(['TPEx', 'TWSE']);
    const rankings = createRankings({ feed, now: () => wall.ms });
    const tpex = new Set(rankings.list('turnover', { market: 'TPEx' }).symbols);
    const twse = new Set(rankings.list('turnover', { market: 'TWSE' }).symbols);
    expect([tpex.has('6589'), twse.has('6589'), tpex.has('6423'), twse.has('6423')]).toEqual([
      true,
      false,
      false,
      true,
    ]);
    // Each exchange's turnover is the file's sum over the codes on it that day.
    const markets = marketsOn(day);
    const today = byDate.get(day)!;
    const sum = (m: 'TWSE' | 'TPEx') =>
      [...today].filter(([code]) => markets.get(code) === m).reduce((s, [, r]) => s + r.turnover, 0);
    const b = rankings.snapshot().breadth.byMarket;
    expect([b.TWSE.turnoverMinor, b.TPEx.turnoverMinor]).toEqual([sum('TWSE'), sum('TPEx')]);
    const counted = (c: { advancers: number; decliners: number; unchanged: number }) =>
      c.advancers + c.decliners + c.unchanged;
    expect([counted(b.TWSE), counted(b.TPEx)]).toEqual([
      [...today.keys()].filter((c) => markets.get(c) === 'TWSE').length,
      [...today.keys()].filter((c) => markets.get(c) === 'TPEx').length,
    ]);
  }, 600_000);
});
