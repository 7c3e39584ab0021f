/**
 * The visible window of a whole-market ranking, kept in step with the server.
 *
 * The order lives on the server (server/modules/market/rankings.ts, a snapshot recomputed at most
 * once a second); the client holds only the symbols of the pages around what is on screen. Every
 * POLL_MS it fetches those pages of market/list (PAGE_SIZE rows each: the window is ~15 rows,
 * so one or two pages, ≈ 20 KB), seeds the quote store with their quotes (the store keeps the
 * fresher of a page's quote and a streamed one) and replaces the order. Scrolling to pages not yet
 * loaded fetches them at once. The code order (sort `all`) moves only when the listed instruments
 * change, so it is refreshed every CODE_ORDER_POLL_MS: its rows' prices come from the quote
 * stream (the worker polls quotes itself while the socket is down), and a page a second would
 * only re-send them (`pollMsFor`).
 *
 * No row jumps under the finger: while the list is held (a touch or pointer is down, it is
 * scrolling, or either ended less than RELEASE_MS ago) a fresh order only fills rows that were
 * still unknown; the rest waits and is applied on release. Rows update in place (the list keys
 * rows by index), so a re-sort changes what a row shows, never where rows are.
 *
 * Polling, not streaming, because the order is small, changes at most once a second and is
 * needed only for ~2 pages; a ranking stream would need a per-client filtered window on the
 * gateway. Units: indices are 0-based list positions; times wall ms.
 */
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { useDispatch } from 'react-redux';
import type { ResOf } from '../../../contract/api';
import { recordNamesEn } from '../../live/names-en';
import { clockSeen, quotesReceived } from '../../live/quotes-slice';
import { peekEarlyData } from '../../api/early';
import { marketApi } from './api/market-api';
import { firstPageBody, PAGE_SIZE, type RankingArgs } from './ranking-args';

export { PAGE_SIZE, type RankingArgs } from './ranking-args';

/** Wall ms between refreshes of a ranking's order (the server re-ranks at most once a second). */
export const POLL_MS = 1000;
/** Wall ms between refreshes of the code order, which changes only with the listed instruments. */
export const CODE_ORDER_POLL_MS = 60_000;

/** Whether `sort` is the code order (`all`), which moves only when the listed instruments change. */
const isCodeOrder = (sort: RankingArgs['sort']): boolean => sort === 'all';

/** Wall ms between refreshes of the window of `sort`: a ranking each second, the code order rarely. */
export function pollMsFor(sort: RankingArgs['sort']): number {
  return isCodeOrder(sort) ? CODE_ORDER_POLL_MS : POLL_MS;
}
/** Wall ms after the last touch or scroll before a held re-sort is applied. */
export const RELEASE_MS = 600;
/** Rows beyond the visible range whose order is kept (and quotes subscribed). */
export const OVERSCAN_ROWS = 5;

type ListRes = ResOf<'market/list'>;

/** What the list shows: the whole list's length and the symbols known per index. */
export interface RankingView {
  total: number;
  /** Symbol per list index; undefined where its page has not been fetched. */
  symbols: ReadonlyArray<string | undefined>;
  /** The replayed day of the snapshot (null: none shared). */
  replayDate: string | null;
  /**
   * The day's session has closed: the order and figures are the real day's (market/list
   * `final`); false while it runs (the practice venue's simulated figures). Absent: false.
   */
  final?: boolean;
}

/** Touch or pointer down, scrolling, or either ended less than RELEASE_MS ago (wall clock). */
function isHeld(h: { down: boolean; scrolling: boolean; releasedAt: number }): boolean {
  return h.down || h.scrolling || Date.now() - h.releasedAt < RELEASE_MS;
}

/** Pages (1-based) covering rows [start − overscan, end + overscan]. */
export function pagesFor(startIndex: number, endIndex: number, pageSize = PAGE_SIZE): number[] {
  const first = Math.floor(Math.max(0, startIndex - OVERSCAN_ROWS) / pageSize) + 1;
  const last = Math.floor(Math.max(0, endIndex + OVERSCAN_ROWS) / pageSize) + 1;
  const out: number[] = [];
  for (let p = first; p <= last; p++) out.push(p);
  return out;
}

/** Whether `view` knows the symbol of every listed row of `pages` (1-based; PAGE_SIZE rows each). Pure. */
export function pagesKnown(
  view: RankingView | null,
  pages: readonly number[],
  pageSize = PAGE_SIZE,
): boolean {
  if (!view) return false;
  for (const p of pages) {
    const end = Math.min(view.total, p * pageSize);
    for (let i = (p - 1) * pageSize; i < end; i++) if (view.symbols[i] === undefined) return false;
  }
  return true;
}

/** Whether two views show the same rows: the same length, symbols and replayed day. Pure. */
function sameView(a: RankingView, b: RankingView): boolean {
  if (
    a.total !== b.total ||
    a.replayDate !== b.replayDate ||
    a.final !== b.final ||
    a.symbols.length !== b.symbols.length
  )
    return false;
  for (let i = 0; i < a.symbols.length; i++) if (a.symbols[i] !== b.symbols[i]) return false;
  return true;
}

/**
 * Merges fetched pages into the current view. `fillOnly`: keep every known index, fill unknown
 * ones (a held list); otherwise the pages' indices take the fresh order. Indices outside the pages
 * keep what they had (off screen; refreshed when they come into view). Returns `prev` itself when
 * nothing it shows changed (a refresh of an unchanged order re-renders nothing). Pure.
 */
export function mergePages(
  prev: RankingView | null,
  pages: readonly ListRes[],
  fillOnly: boolean,
): RankingView {
  const latest = pages.reduce<ListRes | undefined>(
    (a, p) => (!a || p.rankedAt >= a.rankedAt ? p : a),
    undefined,
  );
  const total = latest?.total ?? prev?.total ?? 0;
  const symbols: Array<string | undefined> = new Array<string | undefined>(total);
  if (prev) for (let i = 0; i < Math.min(total, prev.symbols.length); i++) symbols[i] = prev.symbols[i];
  for (const p of pages) {
    const base = (p.page - 1) * p.pageSize;
    p.items.forEach((q, j) => {
      const i = base + j;
      if (i >= total) return;
      if (!fillOnly || symbols[i] === undefined) symbols[i] = q.symbol;
    });
  }
  const next = {
    total,
    symbols,
    replayDate: latest?.replayDate ?? prev?.replayDate ?? null,
    final: latest?.final ?? prev?.final ?? false,
  };
  return prev && sameView(prev, next) ? prev : next;
}

/**
 * Keeps the ranking `args` fresh around `range` (visible indices) and returns the view plus the
 * handlers that mark the list held (touch, pointer, scrolling). `null` until the first page came.
 */
export function useRankingWindow(
  args: RankingArgs,
  range: { startIndex: number; endIndex: number },
): {
  view: RankingView | null;
  error: boolean;
  setScrolling: (scrolling: boolean) => void;
  holdHandlers: {
    onTouchStart: () => void;
    onTouchEnd: () => void;
    onPointerDown: () => void;
    onPointerUp: () => void;
    onTouchCancel: () => void;
    onPointerCancel: () => void;
  };
} {
  const dispatch = useDispatch<ThunkDispatch<unknown, unknown, UnknownAction>>();
  const argsKey = JSON.stringify(args);
  // The first page asked before the app loaded (src/api/early.ts), when it has come: the first
  // render shows its rows (as the static shell did) instead of a loading state (their quotes and
  // the clock are in the store already: src/app/early-seed.ts).
  const [view, setView] = useState<RankingView | null>(() => {
    const early = peekEarlyData('market/list', firstPageBody(args)) as ListRes | undefined;
    return early ? mergePages(null, [early], false) : null;
  });
  const [error, setError] = useState(false);
  const viewRef = useRef<RankingView | null>(view);
  const pending = useRef<ListRes[] | null>(null);
  const hold = useRef({ down: false, scrolling: false, releasedAt: 0 });
  const releaseTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const held = useCallback(() => isHeld(hold.current), []);

  // A transition: a re-sort re-renders the rows that changed symbol in slices of a few ms, between
  // the stream's frames, not in one task (the rows' prices are drawn without React meanwhile).
  const apply = useCallback((next: RankingView) => {
    viewRef.current = next;
    startTransition(() => setView(next));
  }, []);

  const flush = useCallback(() => {
    if (held() || !pending.current) return;
    const pages = pending.current;
    pending.current = null;
    apply(mergePages(viewRef.current, pages, false));
  }, [apply, held]);

  const release = useCallback(() => {
    hold.current.releasedAt = Date.now();
    if (releaseTimer.current) clearTimeout(releaseTimer.current);
    releaseTimer.current = setTimeout(flush, RELEASE_MS + 10);
  }, [flush]);

  // A new ranking or filter starts from nothing.
  const shownArgs = useRef(argsKey);
  useEffect(() => {
    if (shownArgs.current === argsKey) return;
    shownArgs.current = argsKey;
    viewRef.current = null;
    pending.current = null;
    setView(null);
    setError(false);
  }, [argsKey]);

  const pagesKey = pagesFor(range.startIndex, range.endIndex).join(',');
  useEffect(() => {
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const pages = pagesKey.split(',').map(Number);
    const pageArgs = JSON.parse(argsKey) as RankingArgs;
    const run = async () => {
      try {
        const results = await Promise.all(
          pages.map((page) =>
            dispatch(
              marketApi.endpoints.rankingPage.initiate(
                { ...pageArgs, page, pageSize: PAGE_SIZE },
                { subscribe: false, forceRefetch: true },
              ),
            ).unwrap(),
          ),
        );
        if (!alive) return;
        setError(false);
        const quotes = results.flatMap((r) => r.items);
        if (quotes.length) dispatch(quotesReceived(quotes));
        for (const r of results) recordNamesEn(r.namesEn);
        if (results[0]) dispatch(clockSeen(results[0].clock));
        if (held() && viewRef.current) {
          apply(mergePages(viewRef.current, results, true));
          pending.current = results;
        } else {
          pending.current = null;
          apply(mergePages(viewRef.current, results, false));
        }
      } catch {
        if (alive) setError(viewRef.current === null);
      }
      if (alive) timer = setTimeout(() => void run(), pollMsFor(pageArgs.sort));
    };
    // A code order already known for these pages (the early answer, or pages seen before) is not
    // asked again at once: it waits for its next refresh.
    if (isCodeOrder(pageArgs.sort) && pagesKnown(viewRef.current, pages))
      timer = setTimeout(() => void run(), pollMsFor(pageArgs.sort));
    else void run();
    return () => {
      alive = false;
      if (timer) clearTimeout(timer);
    };
  }, [argsKey, pagesKey, dispatch, apply, held]);

  useEffect(
    () => () => {
      if (releaseTimer.current) clearTimeout(releaseTimer.current);
    },
    [],
  );

  const setScrolling = useCallback(
    (scrolling: boolean) => {
      hold.current.scrolling = scrolling;
      if (!scrolling) release();
    },
    [release],
  );
  const down = useCallback(() => {
    hold.current.down = true;
  }, []);
  const up = useCallback(() => {
    hold.current.down = false;
    release();
  }, [release]);

  return {
    view,
    error,
    setScrolling,
    holdHandlers: {
      onTouchStart: down,
      onTouchEnd: up,
      onTouchCancel: up,
      onPointerDown: down,
      onPointerUp: up,
      onPointerCancel: up,
    },
  };
}
