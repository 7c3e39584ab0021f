/**
 * Bench page for OUR pipeline (tests/bench/stream.html): the real market worker behind the real
 * bridge (src/live/worker-bridge.ts), the app's store (createAppStore: market reducers,
 * autoBatchEnhancer raf), the real QuoteRow in a react-virtuoso list of every symbol of the
 * universe — all of them subscribed through useQuoteStream, so the worker takes the whole
 * firehose while only the rows on screen render — the real status bar, and the real order panel
 * for the first symbol (the input → next paint measure). Session: the driver puts a funded
 * member's token in local storage before the page loads, as the app does after login.
 */
import '../../../src/app/antd-render';
import '../../../src/app/styles.css';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { useSelector } from 'react-redux';
import { createHashRouter, RouterProvider } from 'react-router-dom';
import { Virtuoso } from 'react-virtuoso';
import type { Quote } from '../../../contract/market';
import { AppProviders } from '../../../src/app/providers';
import { setupI18n } from '../../../src/app/i18n';
import { createAppStore } from '../../../src/app/store';
import { OrderPanel } from '../../../src/features/trading/components/order-panel';
import { QUOTE_ROW_HEIGHT_PX, QuoteRow } from '../../../src/live/components/quote-row';
import { MarketStatusBar } from '../../../src/live/components/status-bar';
import { useMarketStatusBridge, useQuote, useQuoteStream } from '../../../src/live/hooks';
import { quoteCount, type MarketRootState } from '../../../src/live/quotes-slice';
import {
  bench,
  countDispatches,
  fetchUniverse,
  listenToWorkerProbe,
  noteQuote,
  usePaintProbe,
  visibleSymbols,
} from './probe';

/** Height of the quote list (px); the order panel follows below it. */
const LIST_HEIGHT_PX = 520;

setupI18n();
listenToWorkerProbe();
const store = countDispatches(createAppStore(), (action) => {
  const { items, receivedAt } = quotesOf(action);
  for (let i = 0; i < items.length; i++) noteQuote(items[i]!.symbol, items[i]!.ts, receivedAt?.[i]);
});

/**
 * The quotes a market action carries (`quotesReceived(items)` or a batch action `{items,
 * receivedAt}`), with their worker receipt times where the action has them.
 */
function quotesOf(action: unknown): { items: readonly Quote[]; receivedAt?: readonly number[] } {
  const a = action as { type?: unknown; payload?: unknown };
  if (typeof a?.type !== 'string' || !a.type.startsWith('quotes/')) return { items: [] };
  const p = a.payload as Quote[] | { items?: Quote[]; receivedAt?: number[] } | undefined;
  if (Array.isArray(p)) return { items: p };
  return Array.isArray(p?.items) ? { items: p.items, receivedAt: p.receivedAt } : { items: [] };
}

function PaintProbe() {
  usePaintProbe(useSelector((s: MarketRootState) => s.quotes));
  return null;
}

function Orders({ symbol }: { symbol: string }) {
  const quote: Quote | undefined = useQuote(symbol);
  return <OrderPanel symbol={symbol} quote={quote} />;
}

function BenchList({ symbols }: { symbols: string[] }) {
  // The whole universe is subscribed: the worker absorbs every symbol's updates.
  useQuoteStream(symbols);
  return (
    <Virtuoso
      style={{ height: LIST_HEIGHT_PX }}
      data={symbols}
      computeItemKey={(_, s) => s}
      fixedItemHeight={QUOTE_ROW_HEIGHT_PX}
      rangeChanged={(r) => {
        visibleSymbols.clear();
        for (let i = r.startIndex; i <= r.endIndex && i < symbols.length; i++)
          visibleSymbols.add(symbols[i]!);
      }}
      itemContent={(_, symbol) => <QuoteRow symbol={symbol} />}
    />
  );
}

function BenchApp() {
  useMarketStatusBridge();
  const [symbols, setSymbols] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    fetchUniverse().then(setSymbols, (e: unknown) => setError(String(e)));
  }, []);
  const shown = useSelector((s: MarketRootState) => quoteCount(s.quotes));
  useEffect(() => {
    const b = bench();
    if (!b) return;
    b.info.page = 'stream';
    b.info.symbols = symbols?.length ?? 0;
    if (error) b.info.error = error;
    b.ready = !!symbols && shown >= symbols.length;
  }, [symbols, shown, error]);

  if (error) return <pre data-testid="bench-error">{error}</pre>;
  if (!symbols) return null;
  return (
    <div className="bench-stream">
      <MarketStatusBar />
      <PaintProbe />
      <BenchList symbols={symbols} />
      <Orders symbol={symbols[0]!} />
      {/* Room to scroll the order button to mid-screen: headless Chromium does not present a frame
          whose only change lies in the bottom ~87 px of the viewport, so a tap there would be
          timed to the next frame that changes something else (README, bench:stream caveats). */}
      <div style={{ height: '50vh' }} aria-hidden />
    </div>
  );
}

const router = createHashRouter([{ path: '*', element: <BenchApp /> }]);
const rootEl = document.getElementById('root');
if (!rootEl) throw new Error('#root missing');
createRoot(rootEl).render(
  <AppProviders store={store}>
    <RouterProvider router={router} />
  </AppProviders>,
);
