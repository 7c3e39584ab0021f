/**
 * Market data import (server/market/import.ts): idempotent, exact minor units, source priority
 * (full official > twse_ohlcv > twse_stock_day_2330_2026 > recent Yahoo), instrument mapping.
 * Expected rows are copied from the seed CSVs (server/db/seed-data/daily, securities.csv).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../server/db/client';
import { memoryDatabase } from '../support/db-template';
import { importMarketData, readSeedMarketData } from '../../server/market/import';
import { dailyCandles, instruments } from '../../server/db/schema';
import { parseCsv, toRecords } from '../../server/market/csv';

const SYMBOLS = ['2330', '2317', '0050'];
let database: Database;

beforeAll(async () => {
  database = (await memoryDatabase()).database;
});
afterAll(async () => {
  await database?.close();
});

async function tableCounts() {
  const [i] = await database.db.select({ n: sql<number>`count(*)::int` }).from(instruments);
  const [c] = await database.db
    .select({
      n: sql<number>`count(*)::int`,
      digest: sql<string>`md5(string_agg(concat_ws('|', symbol, date, open_minor, high_minor, low_minor, close_minor, volume_shares, turnover_minor, source), ',' order by symbol, date))`,
    })
    .from(dailyCandles);
  return { instruments: i!.n, candles: c!.n, digest: c!.digest };
}

async function candle(symbol: string, date: string) {
  const rows = await database.db
    .select()
    .from(dailyCandles)
    .where(and(eq(dailyCandles.symbol, symbol), eq(dailyCandles.date, date)));
  return rows[0];
}

describe('importMarketData', () => {
  it('is idempotent: a second run returns the same counts and changes nothing', async () => {
    const first = await importMarketData(database.db, { symbols: SYMBOLS });
    const afterFirst = await tableCounts();
    const second = await importMarketData(database.db, { symbols: SYMBOLS });
    const afterSecond = await tableCounts();
    expect(first.instruments).toBe(3);
    expect(second).toEqual(first);
    expect(afterFirst).toMatchObject({ instruments: 3, candles: first.candles });
    expect(afterSecond).toEqual(afterFirst); // same rows, same content (md5 over every column)
    // 2330: 2,596 official full rows 2015-01-05 … 2025-08-19, + 2026 official, + Yahoo-only days
    expect(first.candles).toBeGreaterThan(3 * 2_500);
  });

  it('never overwrites an existing row', async () => {
    const where = and(eq(dailyCandles.symbol, '2317'), eq(dailyCandles.date, '2015-01-06'));
    const [orig] = await database.db.select().from(dailyCandles).where(where);
    await database.db.update(dailyCandles).set({ closeMinor: 1 }).where(where);
    await importMarketData(database.db, { symbols: SYMBOLS });
    expect((await database.db.select().from(dailyCandles).where(where))[0]!.closeMinor).toBe(1);
    await database.db.update(dailyCandles).set({ closeMinor: orig!.closeMinor }).where(where);
  });

  it('official full file wins, with turnover, exact minor units', async () => {
    // twse_stock_day_full: 2025-08-19,2330,17835000,21092015000,1180.00,1185.00,1175.00,1185.00,+5.00,6255,
    // (recent_ohlcv has the same day with Yahoo volume 17867547)
    expect(await candle('2330', '2025-08-19')).toEqual({
      symbol: '2330',
      date: '2025-08-19',
      openMinor: 118_000,
      highMinor: 118_500,
      lowMinor: 117_500,
      closeMinor: 118_500,
      volumeShares: 17_835_000,
      turnoverMinor: 2_109_201_500_000,
      source: 'twse_stock_day',
    });
    // 2025-05-07 lies in the full-market window, which comes first: MI_INDEX's row (the same
    // 39,021,595 shares as STOCK_DAY; twse_ohlcv 37,760,595, recent 36,907,620)
    expect(await candle('2330', '2025-05-07')).toMatchObject({
      volumeShares: 39_021_595,
      turnoverMinor: 3_601_180_646_900,
      source: 'twse_mi_index',
      closeMinor: 92_800,
    });
  });

  it('official 2330 2026 file beats the Yahoo file', async () => {
    // 2026-02-02,2330,33342359,58467099660,1750.00,1765.00,1745.00,1765.00 (Yahoo volume 28251381)
    expect(await candle('2330', '2026-02-02')).toMatchObject({
      openMinor: 175_000,
      closeMinor: 176_500,
      volumeShares: 33_342_359,
      turnoverMinor: 5_846_709_966_000,
      source: 'twse_stock_day',
    });
    expect(await candle('2330', '2026-07-31')).toMatchObject({
      closeMinor: 242_500,
      source: 'twse_stock_day',
    });
  });

  it('OHLCV and Yahoo rows have no turnover', async () => {
    // twse_ohlcv: 2015-01-05,2317,87.8,87.8,86.9,87.2,25369082
    expect(await candle('2317', '2015-01-05')).toEqual({
      symbol: '2317',
      date: '2015-01-05',
      openMinor: 8_780,
      highMinor: 8_780,
      lowMinor: 8_690,
      closeMinor: 8_720,
      volumeShares: 25_369_082,
      turnoverMinor: null,
      source: 'twse_ohlcv',
    });
    // recent: 2026-06-23,2317,270,270.5,259,259.5,92063800
    expect(await candle('2317', '2026-06-23')).toMatchObject({
      openMinor: 27_000,
      highMinor: 27_050,
      lowMinor: 25_900,
      closeMinor: 25_950,
      volumeShares: 92_063_800,
      turnoverMinor: null,
      source: 'yahoo_recent',
    });
    // 0050's history ends with the full-market window (after its June 2025 split)
    const [last] = await database.db
      .select({ d: sql<string>`max(${dailyCandles.date})::text` })
      .from(dailyCandles)
      .where(eq(dailyCandles.symbol, '0050'));
    expect(last!.d).toBe('2025-07-18');
    expect(await candle('0050', '2025-06-18')).toMatchObject({ openMinor: 4_750, source: 'twse_mi_index' });
  });

  it('maps instruments (kind, empty industry → null, the exchange’s English short name)', async () => {
    const rows = await database.db.select().from(instruments).orderBy(instruments.symbol);
    expect(rows).toEqual([
      {
        symbol: '0050',
        name: '元大台灣50',
        nameEn: null,
        isin: 'TW0000050004',
        listingDate: '2003-06-30',
        market: 'TWSE',
        industry: null,
        kind: 'etf',
        securityType: 'etf',
        delisted: false,
      },
      {
        symbol: '2317',
        name: '鴻海',
        nameEn: 'HON HAI',
        isin: 'TW0002317005',
        listingDate: '1991-06-18',
        market: 'TWSE',
        industry: '其他電子業',
        kind: 'stock',
        securityType: 'stock',
        delisted: false,
      },
      {
        symbol: '2330',
        name: '台積電',
        nameEn: 'TSMC',
        isin: 'TW0002330008',
        listingDate: '1994-09-05',
        market: 'TWSE',
        industry: '半導體業',
        kind: 'stock',
        securityType: 'stock',
        delisted: false,
      },
    ]);
  });
});

describe('full-market window', () => {
  it('imports codes securities.csv lacks (an ETN, a REIT) with their window rows', async () => {
    const db = (await memoryDatabase()).database;
    try {
      const r = await importMarketData(db.db, { symbols: ['020012', '01002T', '2881A'] });
      expect(r.instruments).toBe(3);
      const rows = await db.db.select().from(instruments).orderBy(instruments.symbol);
      expect(rows.map((x) => [x.symbol, x.market, x.securityType, x.kind])).toEqual([
        ['01002T', 'TWSE', 'reit', 'etf'],
        ['020012', 'TWSE', 'etn', 'etf'],
        ['2881A', 'TWSE', 'preferred', 'stock'],
      ]);
      // 2025-04-02,020012,10.89,10.93,10.89,10.93,501000,5472850,6 (the gzip file, verbatim)
      const [etn] = await db.db
        .select()
        .from(dailyCandles)
        .where(and(eq(dailyCandles.symbol, '020012'), eq(dailyCandles.date, '2025-04-02')));
      expect(etn).toMatchObject({
        openMinor: 1_089,
        highMinor: 1_093,
        closeMinor: 1_093,
        volumeShares: 501_000,
        turnoverMinor: 547_285_000,
        source: 'twse_mi_index',
      });
    } finally {
      await db.close();
    }
  });
});

describe('the exchange by date', () => {
  it("tags a window row with the exchange of its date: 6589's 2025 rows are TPEx quotes", async () => {
    const { candles, instruments: inst } = await readSeedMarketData({ symbols: ['6589', '6423'] });
    // securities.csv is a 2026 listing: 6589 on TWSE (from 2025-07-21), 6423 on TPEx (from 2026-01-22).
    expect(inst.map((r) => [r.symbol, r.market])).toEqual(
      expect.arrayContaining([
        ['6589', 'TWSE'],
        ['6423', 'TPEx'],
      ]),
    );
    const on = (symbol: string) =>
      candles.find((c) => c.symbol === symbol && c.date === '2025-07-10')?.source;
    expect([on('6589'), on('6423')]).toEqual(['tpex_quotes', 'twse_mi_index']);
  });
});

describe('CSV parser', () => {
  it('plain rows, BOM, CRLF, trailing newline', () => {
    expect(parseCsv('\ufeffa,b\r\n1,2\r\n\n3,\n')).toEqual([
      ['a', 'b'],
      ['1', '2'],
      ['3', ''],
    ]);
  });
  it('quoted fields with commas, quotes and newlines', () => {
    expect(parseCsv('name,note\n"Foo, Inc.","say ""hi"""\n"multi\nline",x')).toEqual([
      ['name', 'note'],
      ['Foo, Inc.', 'say "hi"'],
      ['multi\nline', 'x'],
    ]);
    expect(() => parseCsv('a\n"open')).toThrow(SyntaxError);
  });
  it('records keyed by header; a ragged row is an error', () => {
    expect(toRecords(parseCsv('code,name\n0050,元大台灣50'))).toEqual([{ code: '0050', name: '元大台灣50' }]);
    expect(() => toRecords(parseCsv('a,b\n1,2,3'))).toThrow(/line 2/);
  });
});
