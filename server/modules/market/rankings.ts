/**
 * Rankings over the whole market (product-spec §2 "Market: lists: all, rise and fall, loss list,
 * trading volume"), breadth for the index tab and the industry directory for the list filter.
 *
 * One cached snapshot per feed, recomputed at most once per `maxAgeMs` (1 s) and only when asked:
 * a request finds a snapshot at most 1 s old (except while the feed is not `settled()`, the few
 * slices of a session change: the last snapshot, all of one day, is served until every instrument
 * is on the new day, so a ranking never mixes two days), so under a live feed the lists move at
 * least once a second, and however many clients poll, the sorts run at most once a second (O(n log n) over the
 * ~2,300 quotes of feed.listQuotes(): five sorts and the breadth measured at a median of 7.9 ms,
 * p95 25 ms, on the shared 2-core machine at load average 10). Filtered lists are cached
 * inside the snapshot per (sort, filter), each an O(n) pass over a sorted order.
 *
 * Orders (symbols only; the page's quotes are read fresh from the feed by the handler):
 * - `all`: code (symbol) order, not-traded instruments in place;
 * - `gainers` (漲幅榜): change % = (last − reference) / reference, descending;
 * - `losers` (跌幅榜, the spec's "loss list"): change %, ascending;
 * - `volume` (成交量): shares traded, descending;
 * - `turnover` (成交值): TWD traded, descending.
 * Ties are broken by symbol (ascending), so equal rows never swap between snapshots. Instruments
 * that have no trade in the replayed day (Quote.traded false) and instruments without a reference
 * price go last in every ranking, in symbol order; so do, in the gainers and losers lists, those
 * whose reference is an estimate (Quote.referenceEstimated: a new listing's first day, a capital
 * change, an ETF split whose published reference the data lack; server/market/reference.ts).
 *
 * Figures: while a replayed session runs they are the practice venue's own (the simulated
 * intraday prints: last, volume, turnover so far, labelled as today's); once it has closed
 * (`final`) every quote carries the real day's close, volume and turnover (the feed replaces the
 * simulated turnover with daily_candles' figure at the closing print), so the lists of a finished
 * day are the exchange's. Exchange filters and breadth use the exchange as of the replayed date
 * (MarketFeed.marketOf).
 * Change % is compared as the exact quotient of two integers (IEEE division rounds correctly, so
 * equal fractions compare equal and distinct fractions of prices below 10^7 minor never collide).
 *
 * Units: prices and turnover TWD minor (1 NT$ = 100), volumes shares, times wall epoch ms.
 */
import type { ClockState, Instrument, Quote } from '../../../contract/market';
import { etfCategoryOf, type EtfCategory, type SecurityType } from '../../../contract/market';
import type { MarketSort } from '../../../contract/constants';
import type { MarketFeed } from '../../market/feed';

/** Market/list filters (contract/market.ts marketListReq): each narrows; absent = any. */
export interface RankingFilter {
  market?: 'TWSE' | 'TPEx';
  securityType?: SecurityType;
  /** ETF category by code suffix; implies ETFs only. */
  etfCategory?: EtfCategory;
  /** securities.csv industry name (Chinese, as the exchanges publish it). */
  industry?: string;
}

/** Advancers, decliners, unchanged and not-traded counts with the day's volume and turnover. */
export interface BreadthCounts {
  advancers: number;
  decliners: number;
  unchanged: number;
  notTraded: number;
  /** Shares. */
  volumeShares: number;
  /** TWD minor. */
  turnoverMinor: number;
}

/** Breadth of the whole market and of each exchange. */
export interface Breadth {
  all: BreadthCounts;
  byMarket: { TWSE: BreadthCounts; TPEx: BreadthCounts };
}

/** One ranking snapshot (immutable once built). */
export interface RankingSnapshot {
  /** Wall epoch ms at which it was computed. */
  computedAt: number;
  /**
   * True when the day's session has closed (sessionFinished): the figures are the real day's.
   * False while it runs (simulated intraday figures) and for a source without sessions (stress).
   */
  final: boolean;
  /** The one real day every quote replays, or null when there is none (no quotes, or mixed days). */
  replayDate: string | null;
  /** Symbols per sort, over the whole market. */
  orders: Readonly<Record<MarketSort, readonly string[]>>;
  breadth: Breadth;
}

/** Whether the instrument trades in the replayed day (Quote.traded: false = no trade that day). */
export function isTraded(q: Quote): boolean {
  return q.traded;
}

/**
 * Change as a fraction of the reference price, or null when unranked (not traded, no reference,
 * or a reference that is an estimate: Quote.referenceEstimated).
 */
export function changeRatio(q: Quote): number | null {
  if (!isTraded(q) || q.prevCloseMinor <= 0 || q.referenceEstimated === true) return null;
  return (q.lastMinor - q.prevCloseMinor) / q.prevCloseMinor;
}

/**
 * Whether the day shown has closed: the replay clock after 13:30 (intermission, after-hours
 * entry), or the exchange clock's closed phase once a session has run (it shows the last session
 * complete). The stress source trades continuously: never.
 */
export function sessionFinished(c: ClockState): boolean {
  if (c.source === 'stress' || c.replayDate === null) return false;
  if (c.tradingPhase === 'intermission' || c.tradingPhase === 'afterHoursEntry') return true;
  return c.mode === 'exchange' && c.tradingPhase === 'closed';
}

/** Filtered lists kept per snapshot before the cache is emptied. */
const MAX_CACHED_FILTERS = 256;

const bySymbol = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The symbols of `quotes` in the order of `sort` (see the module docstring). Pure; O(n log n).
 */
export function rankQuotes(quotes: readonly Quote[], sort: MarketSort): string[] {
  if (sort === 'all') return quotes.map((q) => q.symbol).sort(bySymbol);
  const ranked: Array<{ s: string; k: number }> = [];
  const rest: string[] = [];
  for (const q of quotes) {
    let k: number | null;
    if (sort === 'gainers' || sort === 'losers') {
      const r = changeRatio(q);
      k = r === null ? null : sort === 'gainers' ? -r : r;
    } else {
      k = isTraded(q) ? -(sort === 'volume' ? q.volumeShares : q.turnoverMinor) : null;
    }
    if (k === null) rest.push(q.symbol);
    else ranked.push({ s: q.symbol, k });
  }
  ranked.sort((a, b) => a.k - b.k || bySymbol(a.s, b.s));
  rest.sort(bySymbol);
  const out = ranked.map((r) => r.s);
  for (const s of rest) out.push(s);
  return out;
}

/**
 * Whether a directory entry passes the filter (an unknown instrument passes only an empty one).
 * `marketOf`: the exchange as of the day shown (MarketFeed.marketOf), default the directory's.
 */
export function matchesFilter(
  inst: Instrument | undefined,
  f: RankingFilter,
  marketOf?: (symbol: string) => string | undefined,
): boolean {
  if (!f.market && !f.securityType && !f.etfCategory && !f.industry) return true;
  if (!inst) return false;
  if (f.market && (marketOf?.(inst.symbol) ?? inst.market) !== f.market) return false;
  if (f.securityType && inst.securityType !== f.securityType) return false;
  if (f.etfCategory && (inst.securityType !== 'etf' || etfCategoryOf(inst.symbol) !== f.etfCategory))
    return false;
  if (f.industry && inst.industry !== f.industry) return false;
  return true;
}

const emptyCounts = (): BreadthCounts => ({
  advancers: 0,
  decliners: 0,
  unchanged: 0,
  notTraded: 0,
  volumeShares: 0,
  turnoverMinor: 0,
});

/**
 * Advancers (last above the reference), decliners, unchanged and not-traded instruments, with
 * summed volume and turnover, over `quotes`, overall and per exchange (from `marketOf`).
 */
export function computeBreadth(
  quotes: readonly Quote[],
  marketOf: (symbol: string) => string | undefined,
): Breadth {
  const all = emptyCounts();
  const byMarket = { TWSE: emptyCounts(), TPEx: emptyCounts() };
  for (const q of quotes) {
    const m = marketOf(q.symbol);
    const targets = m === 'TWSE' || m === 'TPEx' ? [all, byMarket[m]] : [all];
    for (const c of targets) {
      if (!isTraded(q)) {
        c.notTraded++;
        continue;
      }
      if (q.lastMinor > q.prevCloseMinor) c.advancers++;
      else if (q.lastMinor < q.prevCloseMinor) c.decliners++;
      else c.unchanged++;
      c.volumeShares += q.volumeShares;
      c.turnoverMinor += q.turnoverMinor;
    }
  }
  return { all, byMarket };
}

/** An industry of the directory with its number of instruments. */
export interface IndustryCount {
  name: string;
  count: number;
}

/** The rankings service of one feed (see the module docstring). */
export interface Rankings {
  /** The current snapshot, recomputed first when it is `maxAgeMs` old or older. */
  snapshot(): RankingSnapshot;
  /** The current snapshot's order for `sort`, narrowed by `filter` (cached per snapshot). */
  list(sort: MarketSort, filter: RankingFilter): { snapshot: RankingSnapshot; symbols: readonly string[] };
  /** Industries of the directory's instruments, by count descending then name. */
  industries(): IndustryCount[];
}

/** Options of createRankings. */
export interface RankingsOptions {
  feed: MarketFeed;
  /** Wall clock (epoch ms). */
  now: () => number;
  /** Largest snapshot age served (ms); default 1000. */
  maxAgeMs?: number;
}

/** A rankings service over `feed` (cached snapshot, see the module docstring). */
export function createRankings({ feed, now, maxAgeMs = 1000 }: RankingsOptions): Rankings {
  let current: RankingSnapshot | null = null;
  let filtered = new Map<string, readonly string[]>();
  let directory: readonly Instrument[] | null = null;
  let bySymbolDir = new Map<string, Instrument>();
  let industryList: IndustryCount[] = [];

  const dir = (): Map<string, Instrument> => {
    const d = feed.instruments();
    if (d !== directory) {
      directory = d;
      bySymbolDir = new Map(d.map((i) => [i.symbol, i]));
      const counts = new Map<string, number>();
      for (const i of d) if (i.industry) counts.set(i.industry, (counts.get(i.industry) ?? 0) + 1);
      industryList = [...counts]
        .map(([name, count]) => ({ name, count }))
        .sort((a, b) => b.count - a.count || bySymbol(a.name, b.name));
    }
    return bySymbolDir;
  };

  const build = (t: number): RankingSnapshot => {
    const quotes = feed.listQuotes();
    // A listing on a comparable's path (feed.listingProxy) trades another stock's figures: it is
    // listed, never ranked or counted.
    const real = feed.listingProxy ? quotes.filter((q) => !feed.listingProxy!(q.symbol)) : quotes;
    const clock = feed.clock();
    return {
      computedAt: t,
      final: sessionFinished(clock),
      replayDate: clock.replayDate,
      orders: {
        all: rankQuotes(quotes, 'all'),
        gainers: rankQuotes(real, 'gainers'),
        losers: rankQuotes(real, 'losers'),
        volume: rankQuotes(real, 'volume'),
        turnover: rankQuotes(real, 'turnover'),
      },
      breadth: computeBreadth(real, feed.marketOf),
    };
  };

  const snapshot = (): RankingSnapshot => {
    const t = now();
    if (!current) return (current = build(t));
    const due = t - current.computedAt >= maxAgeMs || t < current.computedAt;
    // During a session change's few slices the quotes mix two days: keep serving the last
    // snapshot (one whole day) until every instrument is on the new one.
    if (due && feed.settled()) {
      current = build(t);
      filtered = new Map();
    }
    return current;
  };

  return {
    snapshot,
    list(sort, filter) {
      const snap = snapshot();
      const key = `${sort}|${filter.market ?? ''}|${filter.securityType ?? ''}|${filter.etfCategory ?? ''}|${filter.industry ?? ''}`;
      let symbols = filtered.get(key);
      if (!symbols) {
        const d = dir();
        const base = snap.orders[sort];
        symbols = base.filter((s) => matchesFilter(d.get(s), filter, feed.marketOf));
        // Any industry text is a key: bound the cache (it is dropped with each snapshot anyway).
        if (filtered.size >= MAX_CACHED_FILTERS) filtered.clear();
        filtered.set(key, symbols);
      }
      return { snapshot: snap, symbols };
    },
    industries() {
      dir();
      return industryList;
    },
  };
}
