/**
 * Schema of the market area (server/market, server/modules/market): the reference data of the
 * replay, `instruments` and `daily_candles`, and `install_secrets` (the replay's intraday seed,
 * read only by server/market/install-seed.ts).
 */
import { boolean, check, date, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { INSTRUMENT_KINDS, MARKETS, SECURITY_TYPES } from '../../../contract/market';
import { money, createdAt, oneOf } from './columns';

export const instruments = pgTable(
  'instruments',
  {
    symbol: text('symbol').primaryKey(),
    name: text('name').notNull(),
    /**
     * The exchange's published English short name (英文簡稱, e.g. 'TSMC'); null where none is in
     * seed-data/reference/instrument_names_en.csv (its README: source and coverage).
     */
    nameEn: text('name_en'),
    isin: text('isin'),
    listingDate: date('listing_date', { mode: 'string' }),
    /** contract/market.ts MARKETS: TWSE | TPEx */
    market: text('market', { enum: MARKETS }).notNull(),
    industry: text('industry'),
    /** contract/market.ts INSTRUMENT_KINDS: the trading-rule class (tick table, tax). */
    kind: text('kind', { enum: INSTRUMENT_KINDS }).notNull(),
    /** contract/market.ts SECURITY_TYPES: what the security is (innovation-board shares are stocks). */
    securityType: text('security_type', { enum: SECURITY_TYPES }).notNull().default('stock'),
    delisted: boolean('delisted').notNull().default(false),
  },
  (t) => [
    check('instruments_kind_check', oneOf(t.kind, INSTRUMENT_KINDS)),
    check('instruments_market_check', oneOf(t.market, MARKETS)),
    check('instruments_security_type_check', oneOf(t.securityType, SECURITY_TYPES)),
  ],
);

export const dailyCandles = pgTable(
  'daily_candles',
  {
    symbol: text('symbol')
      .notNull()
      .references(() => instruments.symbol),
    date: date('date', { mode: 'string' }).notNull(),
    openMinor: money('open_minor').notNull(),
    highMinor: money('high_minor').notNull(),
    lowMinor: money('low_minor').notNull(),
    closeMinor: money('close_minor').notNull(),
    volumeShares: money('volume_shares').notNull(),
    /** Null where the source has no turnover (non-official OHLCV files). */
    turnoverMinor: money('turnover_minor'),
    source: text('source').notNull(),
  },
  (t) => [primaryKey({ columns: [t.symbol, t.date] })],
);

/**
 * Secrets of one install, created on first start and never served by any endpoint (migration
 * 0028): `marketSeed`, the replay's intraday seed (server/market/install-seed.ts).
 */
export const installSecrets = pgTable('install_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});
