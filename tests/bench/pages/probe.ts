/**
 * Page-side glue shared by the two bench pages: counts store dispatches, remembers the timestamps
 * of quotes dispatched for the rows on screen, and reports them to the instrumentation
 * (tests/bench/instrument.ts, `window.__bench`) when React commits them. Nothing here runs in
 * the product: only the bench build (tests/bench/vite.config.ts) bundles it.
 */
import { useLayoutEffect } from 'react';
import type { BenchHooks } from '../instrument';

/** The instrumentation, or a no-op when the page is opened by hand without the driver. */
export function bench(): BenchHooks | null {
  return typeof window !== 'undefined' && window.__bench ? window.__bench : null;
}

/** BroadcastChannel of tests/bench/pages/worker-probe.ts (message counts, worker task time). */
export const BENCH_CHANNEL = 'tw-bench-worker';

/**
 * Forwards the worker probe's counts to the instrumentation, and the symbols the worker has
 * subscribed on the `quotes` channel (`info.quoteSymbols`).
 */
export function listenToWorkerProbe(): void {
  const channel = new BroadcastChannel(BENCH_CHANNEL);
  channel.onmessage = (ev: MessageEvent<{ absorbed?: number; taskMs?: number; quoteSymbols?: string[] }>) => {
    const b = bench();
    if (!b) return;
    if (ev.data.absorbed) b.absorbed(ev.data.absorbed);
    if (ev.data.taskMs) b.workerTask(ev.data.taskMs);
    if (ev.data.quoteSymbols) b.info.quoteSymbols = ev.data.quoteSymbols;
  };
}

/** Symbols of the rows on screen (set by each page from its own layout). */
export const visibleSymbols = new Set<string>();

/** Timestamps (and worker receipt times, NaN if none) of quotes dispatched for visible rows and not yet committed. */
let pendingVisibleTs: number[] = [];
let pendingReceivedAt: number[] = [];

/**
 * Call for every quote a dispatch carries; cheap for rows off screen. `receivedAtMs`: when the
 * quote reached the market worker (epoch ms), where the page knows it.
 */
export function noteQuote(symbol: string, tsMs: number, receivedAtMs = Number.NaN): void {
  if (visibleSymbols.has(symbol) && pendingVisibleTs.length < 10_000) {
    pendingVisibleTs.push(tsMs);
    pendingReceivedAt.push(receivedAtMs);
  }
}

/** Wraps `store.dispatch` so every dispatch is counted (react-redux reads it at render time). */
export function countDispatches<S extends { dispatch: (action: never) => unknown }>(
  store: S,
  onAction?: (action: unknown) => void,
): S {
  const original = store.dispatch.bind(store) as (action: unknown) => unknown;
  (store as { dispatch: unknown }).dispatch = (action: unknown) => {
    bench()?.dispatched();
    onAction?.(action);
    return original(action);
  };
  return store;
}

/**
 * Rendered next to the rows with a selector on the same quotes state: it commits in the same
 * React commit as the rows it stands for, and hands their quotes' timestamps to the
 * instrumentation from a layout effect (after the DOM changed, before the frame is painted).
 */
export function usePaintProbe(quotesState: unknown): void {
  useLayoutEffect(() => {
    const b = bench();
    if (!b || pendingVisibleTs.length === 0) return;
    for (let i = 0; i < pendingVisibleTs.length; i++) b.committed(pendingVisibleTs[i]!, pendingReceivedAt[i]);
    pendingVisibleTs = [];
    pendingReceivedAt = [];
  }, [quotesState]);
}

/** Every symbol of market/list, paged (the stress universe: STRESS_SYMBOLS instruments). */
export async function fetchUniverse(): Promise<string[]> {
  const out: string[] = [];
  const pageSize = 200;
  for (let page = 1; page <= 1_000; page++) {
    const res = await fetch('/api/vue/market/list', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ page, pageSize, sort: 'all' }),
    });
    const body = (await res.json()) as {
      status: number;
      data: { items: { symbol: string }[]; total: number };
    };
    if (body.status !== 1) throw new Error(`market/list failed: ${JSON.stringify(body).slice(0, 200)}`);
    for (const q of body.data.items) out.push(q.symbol);
    if (out.length >= body.data.total || body.data.items.length === 0) break;
  }
  return out;
}
