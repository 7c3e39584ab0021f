/**
 * The whole market replays one real day (server/market/feed.ts, window.ts, reference.ts), on
 * PGlite and PostgreSQL with the full-market import:
 * - every instrument of two window days (2025-04-07, the tariff crash with hundreds of limit-down
 *   closes, and 2025-06-18, 0050's first day after its 1:4 split): the finished session's
 *   O/H/L/C and volume equal that day's row of the gz file; instruments without a row print
 *   nothing and show `traded: false` at their reference price with volume 0;
 * - the split day (0050 2025-06-18) and an ex-dividend day (2330 2025-06-12) open at the
 *   exchange's reference price (188.65 ÷ 4 = 47.16; 1,060.49), not a ±10 % band of the previous close;
 * - before the first print (offset 0: the pre-open) every instrument has a quote at its reference;
 * - breadth and the TAIEX of the replayed day.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitDownMinor, limitUpMinor } from '../../contract/market-rules';
import type { Quote } from '../../contract/market';
import type { Database } from '../../server/db/client';
import { importMarketData, readSeedMarketData } from '../../server/market/import';
import { SESSION_MS } from '../../server/market/calendar';
import { createClock } from '../../server/market/clock';
import { createMarketFeed, type MarketFeed } from '../../server/market/feed';
import { loadWindowDates, replayWindow, type ReplayWindow } from '../../server/market/window';
import { freshDatabase } from './harness';

let database: Database;
let drop: () => Promise<void>;
let win: ReplayWindow;
/** The gz file's rows by date → code → row (the import's merge keeps them unchanged in the window). */
const fileRows = new Map<string, Map<string, { o: number; h: number; l: number; c: number; v: number }>>();

beforeAll(async () => {
  ({ database, drop } = await freshDatabase());
  await importMarketData(database.db);
  win = replayWindow(await loadWindowDates(database.db));
  const { candles } = await readSeedMarketData();
  for (const r of candles) {
    if (r.source !== 'twse_mi_index' && r.source !== 'tpex_quotes') continue;
    let m = fileRows.get(r.date);
    if (!m) fileRows.set(r.date, (m = new Map()));
    m.set(r.symbol, { o: r.openMinor, h: r.highMinor, l: r.lowMinor, c: r.closeMinor, v: r.volumeShares });
  }
}, 600_000);
afterAll(async () => drop?.());

const SPEED = 60;
/** Clock session replaying `date`. */
const sessionOf = (date: string): number => {
  const k = win.replayDayIndexes.indexOf(win.dates.indexOf(date));
  if (k < 0) throw new Error(`${date} is not replayed`);
  return k;
};

/** A feed (no timer) at market offset `offsetMs` of the session replaying `date`. */
async function feedAt(date: string, offsetMs: number): Promise<{ feed: MarketFeed; wall: { ms: number } }> {
  const wall = { ms: 0 };
  const clock = createClock({ mode: 'replay', speed: SPEED, now: () => wall.ms });
  wall.ms = clock.wallAt(sessionOf(date), offsetMs);
  const feed = createMarketFeed({ db: database.db, clock, seed: 11 });
  await feed.start({ timer: false });
  return { feed, wall };
}

describe('one market day for every instrument', () => {
  it('the window: 74 days from the data, 73 replayed from 2025-04-07', () => {
    expect(win.dates).toHaveLength(74);
    expect([win.dates[0], win.dates[1], win.dates.at(-1)]).toEqual([
      '2025-04-02',
      '2025-04-07',
      '2025-07-18',
    ]);
    expect(win.dateOf(0)).toBe('2025-04-07');
    expect(win.dateOf(73)).toBe('2025-04-07');
  });

  for (const date of ['2025-04-07', '2025-06-18']) {
    it(`${date}: every finished session equals the file's row; not-traded instruments print nothing`, async () => {
      const { feed, wall } = await feedAt(date, SESSION_MS - 1);
      expect(feed.clock().replayDate).toBe(date);
      const last = new Map<string, Quote>();
      const printed = new Set<string>();
      feed.onQuote((q) => q.replayDate === date && last.set(q.symbol, q));
      feed.onTrade((s, t) => t.ts >= Date.parse(`${date}T00:00:00+08:00`) && printed.add(s));
      for (const q of feed.listQuotes()) last.set(q.symbol, q);
      wall.ms += 2_000 / SPEED; // into the next session: the closing prints go out
      feed.tick();
      feed.stop();
      const rows = fileRows.get(date)!;
      expect(rows.size).toBeGreaterThan(2_000);
      let traded = 0;
      const mismatches: string[] = [];
      for (const [symbol, q] of last) {
        const r = rows.get(symbol);
        if (!r) {
          if (q.traded || q.volumeShares !== 0 || printed.has(symbol) || q.lastMinor !== q.prevCloseMinor)
            mismatches.push(`${symbol} has no row but traded`);
          continue;
        }
        traded++;
        const got = [q.openMinor, q.highMinor, q.lowMinor, q.lastMinor, q.volumeShares];
        if (!q.traded || got.join() !== [r.o, r.h, r.l, r.c, r.v].join())
          mismatches.push(`${symbol} ${got.join()} ≠ ${[r.o, r.h, r.l, r.c, r.v].join()}`);
      }
      expect(mismatches.slice(0, 10)).toEqual([]);
      // every row of the file is an instrument of the feed that traded
      expect(traded).toBe(rows.size);
    }, 300_000);
  }

  it('the split day (0050 2025-06-18) and an ex-dividend day (2330 2025-06-12) open at the exchange reference', async () => {
    const split = (await feedAt('2025-06-18', 60_000)).feed;
    const q = split.quote('0050')!;
    split.stop();
    // 188.65 (2025-06-10) ÷ 4 = 47.1625 → 47.16; a band around 188.65 would start at 169.79.
    expect(q).toMatchObject({
      prevCloseMinor: 4_716,
      limitUpMinor: limitUpMinor(4_716, 'etf'),
      limitDownMinor: limitDownMinor(4_716, 'etf'),
      openMinor: fileRows.get('2025-06-18')!.get('0050')!.o,
      traded: true,
    });
    const ex = (await feedAt('2025-06-12', 60_000)).feed;
    const t = ex.quote('2330')!;
    ex.stop();
    expect(t).toMatchObject({
      prevCloseMinor: 106_049, // the exchange's ex-dividend reference, not the 1,065 close
      limitUpMinor: limitUpMinor(106_049),
      limitDownMinor: limitDownMinor(106_049),
      openMinor: fileRows.get('2025-06-12')!.get('2330')!.o,
    });
  }, 300_000);

  it('before the first print every listed instrument quotes its reference; breadth and TAIEX of the day', async () => {
    const { feed, wall } = await feedAt('2025-04-07', 0);
    const quotes = feed.listQuotes();
    expect(quotes.length).toBeGreaterThan(2_000);
    for (const q of quotes) {
      expect(q.volumeShares).toBe(0);
      expect(q.lastMinor).toBe(q.prevCloseMinor);
    }
    expect(feed.breadth().notTraded).toBe(quotes.length);
    wall.ms += (SESSION_MS - 1) / SPEED;
    feed.tick();
    const b = feed.breadth();
    // 2025-04-07: the market fell ~9.7 %; almost every traded instrument is down.
    expect(b.decliners).toBeGreaterThan(1_500);
    expect(b.advancers + b.decliners + b.unchanged + b.notTraded).toBe(quotes.length);
    expect(b.byMarket.TWSE.decliners + b.byMarket.TPEx.decliners).toBe(b.decliners);
    const [taiex] = feed.indices();
    expect(taiex).toMatchObject({
      code: 'TAIEX',
      date: '2025-04-07',
      prevCloseMinor: 2_129_822,
      estimate: true,
    });
    wall.ms += 2_000 / SPEED;
    feed.tick();
    // the day is done: the official close of 2025-04-07 (19,232.35)
    expect(feed.indices()[0]).toMatchObject({ lastMinor: 1_923_235, estimate: false });
    feed.stop();
  }, 300_000);
});
