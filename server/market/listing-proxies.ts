/**
 * Listings the replay has no market data for (docs/adr/0004-ipo-offers-on-the-replay.md): a code of a
 * real 2026 public-subscription announcement that never trades in the replay window (a first
 * listing such as 6722 輝創, or a stock absent from the window such as 3717) is listed on the replay
 * along the real path of a comparable: a stock of the same exchange that listed inside the window
 * (e.g. 6936 永鴻生技, first traded 2025-04-28). On every window day the comparable trades, the
 * symbol trades the comparable's real bar scaled so that the comparable's first open becomes the
 * announcement's offer price:
 *
 *   price = nearest tick of (comparable price × offer ÷ comparable's first open), volume the same,
 *   and from a comparable's ex-dividend date on × (its close before ÷ the exchange's reference):
 *   the proxy's holders receive no dividend, so its drop is taken out.
 *
 * So the listing opens at the offer price (its first reference, as a new listing's is) and then
 * gains or loses what the comparable did after its own opening print, with no price limit in its
 * first five trading days (the comparable's listing date is the symbol's). Neither a gain nor a
 * loss is known when applying: which comparable goes with which symbol is drawn from the market
 * seed (assignComparables) and is not shown. Like every instrument of the window it is "not listed yet" before that day when the
 * window starts over.
 *
 * Comparables (from the window's own data, nothing typed in): stocks whose listing date lies
 * inside the window and equals their first traded window day, at least MIN_FIRST_INDEX replayed
 * days after the window's first (so a subscription's apply days fit before it in the same pass of
 * the window) and with at least MIN_TRADED_DAYS traded days.
 *
 * Units: prices minor (1 NT$ = 100), volumes shares. Pure functions; the feed applies them.
 */
import { ceilToTick, floorToTick, type InstrumentKind } from '../../contract/market-rules';
import { mulDivRound } from '../../contract/money';
import { hashSeed } from './prng';

/**
 * Window day index a comparable's first day must reach: the offering's first apply day is 9
 * business days before its listing (apply 3, deduction, draw, then 5 to the listing), and the
 * window's replayed days start at index 1.
 */
export const MIN_FIRST_INDEX = 10;
/** Traded days a comparable needs in the window (its path is the listing's). */
export const MIN_TRADED_DAYS = 20;

/** What the replay lists on a comparable's path. */
export interface ListingProxy {
  symbol: string;
  /** The comparable's code (not shown to members). */
  comparable: string;
  /** Window day index of the comparable's first traded day: the symbol's listing day. */
  firstIndex: number;
  /** The comparable's listing date: the symbol's first no-limit day on the replay. */
  listingDate: string;
  /** The announcement's offer price (minor): the scaled first open. */
  offerMinor: number;
  /** The comparable's first open (minor): the scale's denominator. */
  anchorMinor: number;
}

/** A candidate comparable found in the window. */
export interface Comparable {
  symbol: string;
  market: string;
  firstIndex: number;
  listingDate: string;
}

/** The directory fields the choice needs. */
export interface ProxyInstrument {
  symbol: string;
  market: string;
  securityType: string;
  listingDate: string | null;
}

/**
 * The window's comparables (module docstring), symbol order. `closeAt(symbol, d)` is the close on
 * window day d (0: no trade).
 */
export function findComparables(
  directory: readonly ProxyInstrument[],
  dates: readonly string[],
  closeAt: (symbol: string, d: number) => number | undefined,
): Comparable[] {
  const out: Comparable[] = [];
  for (const inst of directory) {
    if (inst.securityType !== 'stock' || !inst.listingDate) continue;
    if (!(inst.listingDate > dates[0]! && inst.listingDate <= dates.at(-1)!)) continue;
    let first = -1;
    let traded = 0;
    for (let d = 0; d < dates.length; d++) {
      const c = closeAt(inst.symbol, d);
      if (c === undefined) break;
      if (c > 0) {
        if (first < 0) first = d;
        traded++;
      }
    }
    if (first < MIN_FIRST_INDEX || traded < MIN_TRADED_DAYS || dates[first] !== inst.listingDate) continue;
    out.push({ symbol: inst.symbol, market: inst.market, firstIndex: first, listingDate: inst.listingDate });
  }
  return out;
}

/**
 * The comparables of `symbols` (each with its exchange): those of an exchange (all when it has
 * none) are dealt round the exchange's symbols in code order from an offset drawn by
 * hashSeed(seed, 'listing', exchange), so codes spread evenly over them (TWSE 19 codes over 5, TPEx 19
 * over 7) and which goes with which depends on the seed. Symbols without any comparable are absent.
 */
export function assignComparables(
  symbols: ReadonlyArray<{ symbol: string; market: string }>,
  comparables: readonly Comparable[],
  seed: number | string,
): Map<string, Comparable> {
  const out = new Map<string, Comparable>();
  const markets = [...new Set(symbols.map((s) => s.market))].sort();
  for (const market of markets) {
    const same = comparables.filter((c) => c.market === market);
    const pool = same.length ? same : comparables;
    if (!pool.length) continue;
    const codes = symbols
      .filter((s) => s.market === market)
      .map((s) => s.symbol)
      .sort();
    const offset = hashSeed(seed, 'listing', market)[0] % pool.length;
    codes.forEach((code, i) => out.set(code, pool[(offset + i) % pool.length]!));
  }
  return out;
}

/** The valid price nearest to `priceMinor` (ties go down). */
function nearestTick(priceMinor: number, kind: InstrumentKind): number {
  const down = floorToTick(priceMinor, kind);
  const up = ceilToTick(priceMinor, kind);
  return priceMinor - down <= up - priceMinor ? down : up;
}

/**
 * One of the comparable's prices on the symbol's scale: nearest tick of price × offer ÷ anchor
 * (× exFactor, the comparable's ex-dividend drops taken back out: the proxy's holders receive no
 * dividend), at least one tick. Monotone in the price, so a bar's low ≤ open, close ≤ high
 * survives.
 */
export function proxyPriceMinor(
  comparableMinor: number,
  proxy: Pick<ListingProxy, 'offerMinor' | 'anchorMinor'>,
  kind: InstrumentKind = 'stock',
  exFactor: { num: number; den: number } = { num: 1, den: 1 },
): number {
  const scaled = mulDivRound(comparableMinor, proxy.offerMinor, proxy.anchorMinor);
  return Math.max(1, nearestTick(mulDivRound(scaled, exFactor.num, exFactor.den), kind));
}

/** The window's rows as the feed holds them: [row × days + day], close 0 = no trade. */
export interface ProxyRows {
  days: number;
  open: Int32Array;
  high: Int32Array;
  low: Int32Array;
  close: Int32Array;
  volume: Float64Array;
}

/**
 * Fills the rows of every wanted symbol that has no traded day in the window with its
 * comparable's scaled rows (module docstring) and returns the proxies by symbol. A symbol that
 * trades in the window, is not loaded, or finds no comparable is left as it is.
 * @param instruments the loaded instruments, index = row
 * @param wanted the announcements' codes and offer prices (minor); the first of a code counts
 * @param seed the market seed (the comparable's draw)
 * @param exReference the exchange's ex-rights/ex-dividend reference of (code, date), if any: from
 *   that day on the comparable's prices are multiplied by previous close ÷ reference, so its
 *   dividend is not a drop in the proxy, whose holders are paid none
 */
export function fillListingProxies(
  rows: ProxyRows,
  instruments: ReadonlyArray<ProxyInstrument & { kind: InstrumentKind }>,
  dates: readonly string[],
  wanted: ReadonlyArray<{ symbol: string; offerMinor: number }>,
  seed: number | string,
  exReference: (symbol: string, date: string) => number | undefined = () => undefined,
): Map<string, ListingProxy> {
  const rowOf = new Map(instruments.map((r, i) => [r.symbol, i]));
  const closeAt = (symbol: string, d: number) => {
    const i = rowOf.get(symbol);
    return i === undefined ? undefined : rows.close[i * rows.days + d];
  };
  const comparables = findComparables(instruments, dates, closeAt);
  const absent = new Map<string, { offerMinor: number; row: number }>();
  for (const w of wanted) {
    const i = rowOf.get(w.symbol);
    if (i === undefined || absent.has(w.symbol) || w.offerMinor <= 0) continue;
    if (rows.close.subarray(i * rows.days, (i + 1) * rows.days).some((c) => c > 0)) continue;
    absent.set(w.symbol, { offerMinor: w.offerMinor, row: i });
  }
  const assigned = assignComparables(
    [...absent].map(([symbol, a]) => ({ symbol, market: instruments[a.row]!.market })),
    comparables,
    seed,
  );
  const out = new Map<string, ListingProxy>();
  for (const [symbol, { offerMinor, row: i }] of absent) {
    const inst = instruments[i]!;
    const c = assigned.get(symbol);
    if (!c) continue;
    const w = { symbol, offerMinor };
    const ci = rowOf.get(c.symbol)! * rows.days;
    const proxy: ListingProxy = {
      symbol: w.symbol,
      comparable: c.symbol,
      firstIndex: c.firstIndex,
      listingDate: c.listingDate,
      offerMinor: w.offerMinor,
      anchorMinor: rows.open[ci + c.firstIndex]!,
    };
    const at = i * rows.days;
    let ex = { num: 1, den: 1 };
    let prev = 0;
    for (let d = 0; d < rows.days; d++) {
      if (!(rows.close[ci + d]! > 0)) continue;
      const ref = exReference(c.symbol, dates[d]!);
      if (ref !== undefined && ref > 0 && prev > 0) ex = { num: ex.num * prev, den: ex.den * ref };
      for (const col of [rows.open, rows.high, rows.low, rows.close])
        col[at + d] = proxyPriceMinor(col[ci + d]!, proxy, inst.kind, ex);
      rows.volume[at + d] = rows.volume[ci + d]!;
      prev = rows.close[ci + d]!;
    }
    out.set(w.symbol, proxy);
  }
  return out;
}
