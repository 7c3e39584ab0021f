/**
 * The replay feed's start() (feed.ts): loads the directory (LOAD_PAGE_INSTRUMENTS-row pages),
 * the window's dates and rows (feed-history.ts), corporate actions, ETF classes, the dated
 * exchanges, the TAIEX file and the listing proxies; creates every instrument's state, installs
 * the current day in SLICE_MS slices, then starts the timer (sessions build in slices) or, without
 * it, builds and applies everything due at once (tests). Every query is preceded by a yield to
 * the event loop: PGlite answers in-process, so back-to-back queries would run as one long task.
 *
 * Errors: a failed query or unreadable reference file rejects start() (the feed stays unstarted).
 */
import type { Instrument } from '../../contract/market';
import { yieldToEventLoop } from '../db/client';
import { marketLookup } from './breadth';
import { loadWindowRows, type WindowRows } from './feed-history';
import { installDay, newSymbolState, rollover, type FeedState } from './feed-state';
import { scheduleCatchUp, SLICE_MS, step } from './feed-step';
import { loadTaiexCloses } from './indices';
import { loadInstruments } from './instruments';
import { fillListingProxies } from './listing-proxies';
import { loadCorporateActions } from './reference';
import { loadEtfClasses, loadMarketHistory } from './rule-classes';
import { loadWindowDates, replayWindow } from './window';

/** Directory rows per query at start (instruments.ts loadInstruments pages). */
const LOAD_PAGE_INSTRUMENTS = 400;
/** Instruments per primary-key range of the window-dates scan (window.ts loadWindowDates). */
const DATE_SCAN_SYMBOLS = 50;

/** Loads the directory, the window and its rows and the reference files into `f`. */
async function loadMarket(f: FeedState): Promise<{ candidates: Instrument[]; dates: readonly string[] }> {
  const { db, opts } = f;
  f.directory = await loadInstruments(db, { pageSize: LOAD_PAGE_INSTRUMENTS, between: yieldToEventLoop });
  f.marketOf = marketLookup(f.directory);
  // Every await below yields to the event loop first: PGlite answers in-process, so
  // back-to-back queries would otherwise run as one long task.
  await yieldToEventLoop();
  const dates = await loadWindowDates(db, {
    rangeStarts: f.directory.filter((_, i) => i > 0 && i % DATE_SCAN_SYMBOLS === 0).map((r) => r.symbol),
    between: yieldToEventLoop,
  });
  f.win = replayWindow(dates);
  const only = opts.symbols ? new Set(opts.symbols) : null;
  const candidates = f.directory.filter((r) => !only || only.has(r.symbol));
  const loaded = await loadWindowRows(
    db,
    candidates.map((r) => r.symbol),
    dates,
  );
  f.actions = await loadCorporateActions();
  f.etfClasses = await loadEtfClasses();
  f.marketOn = await loadMarketHistory();
  f.taiex = await loadTaiexCloses();
  f.proxies = fillListingProxies(
    loaded,
    candidates,
    dates,
    opts.listingProxies ?? [],
    f.seed,
    (code, date) => f.actions.exRights.get(`${code}|${date}`)?.referenceMinor,
  );
  f.rows = loaded;
  return { candidates, dates };
}

/**
 * The first-listing date of `inst` (row `row` of `rows`) for its limit-free first days, or null:
 * only common shares whose listing date has no trades before it in the window (else the date
 * records a move between boards or exchanges).
 */
function firstListingOf(
  f: FeedState,
  inst: Instrument,
  row: number,
  rows: WindowRows,
  dates: readonly string[],
): string | null {
  let tradedBefore = false;
  const listed = f.proxies.get(inst.symbol)?.listingDate ?? inst.listingDate;
  for (let d = 0; d < rows.days && listed && dates[d]! < listed && !tradedBefore; d++)
    tradedBefore = rows.close[row * rows.days + d]! > 0;
  return inst.securityType === 'stock' && listed && !tradedBefore ? listed : null;
}

/** A state for every candidate with at least one row in the window, and `order` (symbol order). */
function createStates(f: FeedState, candidates: Instrument[], dates: readonly string[]): void {
  const loaded = f.rows!;
  candidates.forEach((inst, row) => {
    let any = false;
    for (let d = 0; d < loaded.days && !any; d++) any = loaded.close[row * loaded.days + d]! > 0;
    if (!any) return;
    const firstListing = firstListingOf(f, inst, row, loaded, dates);
    f.states.set(inst.symbol, newSymbolState(inst, row, firstListing, f.etfClasses.get(inst.symbol) ?? null));
  });
  f.order = [...f.states.keys()].sort().map((s) => f.states.get(s)!);
}

/** MarketFeed.start (see the module docstring and MarketFeed.start). */
export async function startFeed(f: FeedState, startOpts?: { timer?: boolean }): Promise<void> {
  if (f.started) return;
  const { candidates, dates } = await loadMarket(f);
  createStates(f, candidates, dates);
  const p = f.clock.position();
  f.pos = p;
  rollover(f, p);
  // Install every instrument's day in time-boxed slices (the event loop runs between them).
  let sliceStart = performance.now();
  for (const st of f.order) {
    if (performance.now() - sliceStart >= SLICE_MS) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
    installDay(f, st, p, false);
  }
  f.started = true;
  if (startOpts?.timer !== false) {
    f.slicer ??= { budgetMs: SLICE_MS, now: () => performance.now() };
    f.timerOn = true;
    f.timer.start();
    scheduleCatchUp(f);
  } else {
    // Everything due, at once, whatever the slicing (start without the timer is for tests).
    const sliced = f.slicer;
    f.slicer = null;
    step(f, Number.POSITIVE_INFINITY);
    f.slicer = sliced;
  }
}
