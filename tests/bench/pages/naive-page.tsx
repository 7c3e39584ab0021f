/**
 * The naive BASELINE (tests/bench/naive.html): what a straightforward React + Redux page does with
 * the same feed. The WebSocket lives on the main thread; every message of a frame (a frame is one
 * message or an array of them, contract/realtime.ts) is parsed there and becomes one dispatch of
 * one quote, which notifies the store's subscribers at once; every row is rendered (no
 * virtualization), each reading its own quote from the store. Same libraries as the app (React,
 * Redux Toolkit, react-redux) and the same formatting helpers.
 */
import '../../../src/app/styles.css';
import { configureStore, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { memo, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider, useSelector } from 'react-redux';
import type { Quote } from '../../../contract/market';
import { applyQuoteDelta } from '../../../contract/quote-delta';
import { changeColor } from '../../../src/lib/colors';
import { formatMinor, formatPercent, formatSignedMinor } from '../../../src/lib/format';
import { bench, countDispatches, fetchUniverse, noteQuote, usePaintProbe, visibleSymbols } from './probe';

/** The protocol's cap on symbols per sub message. */
const SUB_CHUNK = 500;

const quotesSlice = createSlice({
  name: 'naiveQuotes',
  initialState: { entities: {} as Record<string, Quote> },
  reducers: {
    quote(state, action: PayloadAction<Quote>) {
      state.entities[action.payload.symbol] = action.payload;
    },
  },
});
const store = countDispatches(configureStore({ reducer: { quotes: quotesSlice.reducer } }));
type State = ReturnType<typeof store.getState>;

/** Symbols that have had a quote (the page is ready when all have). */
const seen = new Set<string>();
/** The latest quote per symbol, the base of the next delta. */
const latest = new Map<string, Quote>();

function connect(symbols: string[]): WebSocket {
  const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/ws`);
  ws.onopen = () => {
    for (let i = 0; i < symbols.length; i += SUB_CHUNK)
      ws.send(JSON.stringify({ op: 'sub', channel: 'quotes', symbols: symbols.slice(i, i + SUB_CHUNK) }));
  };
  ws.onmessage = (ev: MessageEvent<string>) => {
    const parsed = JSON.parse(ev.data) as unknown;
    const msgs = (Array.isArray(parsed) ? parsed : [parsed]) as {
      type: string;
      kind?: string;
      symbol?: string;
      seq?: number;
      data?: unknown;
    }[];
    let n = 0;
    for (const m of msgs) {
      if (typeof m.seq === 'number') n++;
      if (m.type === 'quote' && m.data && m.symbol) {
        // A delta carries the changed fields (contract/quote-delta.ts), applied to the held quote.
        const held = latest.get(m.symbol);
        const q = m.kind === 'snapshot' ? (m.data as Quote) : held ? applyQuoteDelta(held, m.data) : null;
        if (!q) continue;
        latest.set(m.symbol, q);
        if (seen.size < symbols.length && !seen.has(q.symbol)) {
          seen.add(q.symbol);
          const b = bench();
          if (b && seen.size === symbols.length) b.ready = true;
        }
        noteQuote(q.symbol, q.ts);
        store.dispatch(quotesSlice.actions.quote(q));
      }
    }
    bench()?.absorbed(n);
  };
  return ws;
}

/**
 * Row markup (`?layout=`): `rows` (default) the app's own row markup and CSS (a grid per row, the
 * cheapest to lay out); `table` a plain <table> (automatic table layout: every change lays out all
 * 2,000 rows again); `fixed` a <table> with `table-layout: fixed`.
 */
const LAYOUT = new URLSearchParams(location.search).get('layout') ?? 'rows';

function useRow(symbol: string) {
  const q = useSelector((s: State) => s.quotes.entities[symbol]);
  const change = q ? q.lastMinor - q.prevCloseMinor : undefined;
  return {
    name: q?.name ?? symbol,
    color: changeColor(change),
    last: q ? formatMinor(q.lastMinor) : '--',
    change: q && change !== undefined ? formatSignedMinor(change) : '--',
    pct: q && change !== undefined ? formatPercent(change, q.prevCloseMinor) : '--',
  };
}

const TableRow = memo(function TableRow({ symbol }: { symbol: string }) {
  const r = useRow(symbol);
  return (
    <tr style={{ height: 56 }}>
      <td>
        <div>{r.name}</div>
        <div style={{ fontSize: 12, color: '#999' }}>{symbol}</div>
      </td>
      <td style={{ color: r.color, textAlign: 'right' }}>{r.last}</td>
      <td style={{ color: r.color, textAlign: 'right' }}>{r.change}</td>
      <td style={{ textAlign: 'right' }}>
        <span style={{ background: r.color, color: '#fff', borderRadius: 4, padding: '1px 6px' }}>
          {r.pct}
        </span>
      </td>
    </tr>
  );
});

const DivRow = memo(function DivRow({ symbol }: { symbol: string }) {
  const r = useRow(symbol);
  return (
    <div className="quote-row">
      <div className="quote-name">
        <div className="quote-title">{r.name}</div>
        <div className="quote-code">{symbol}</div>
      </div>
      <div className="quote-last" style={{ color: r.color }}>
        {r.last}
      </div>
      <div className="quote-change" style={{ color: r.color }}>
        {r.change}
      </div>
      <div className="quote-pct">
        <span className="pct-pill" style={{ background: r.color }}>
          {r.pct}
        </span>
      </div>
    </div>
  );
});

function AllRows({ symbols }: { symbols: string[] }) {
  if (LAYOUT === 'rows')
    return (
      <div>
        {symbols.map((s) => (
          <DivRow key={s} symbol={s} />
        ))}
      </div>
    );
  return (
    <table
      style={{
        width: '100%',
        borderCollapse: 'collapse',
        fontSize: 15,
        tableLayout: LAYOUT === 'fixed' ? 'fixed' : 'auto',
      }}
    >
      <tbody>
        {symbols.map((s) => (
          <TableRow key={s} symbol={s} />
        ))}
      </tbody>
    </table>
  );
}

function PaintProbe() {
  usePaintProbe(useSelector((s: State) => s.quotes));
  return null;
}

function NaiveApp() {
  const [symbols, setSymbols] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    fetchUniverse().then(setSymbols, (e: unknown) => setError(String(e)));
  }, []);
  useEffect(() => {
    if (!symbols) return;
    const ws = connect(symbols);
    return () => ws.close();
  }, [symbols]);
  // Rows on screen: the page never scrolls, so they are the first rows that fit the viewport.
  useEffect(() => {
    if (!symbols) return;
    const first = document.querySelector('tbody tr, .quote-row');
    const top = first?.getBoundingClientRect().top ?? 0;
    const rowPx = first?.getBoundingClientRect().height || 56;
    const fit = Math.max(0, Math.ceil((innerHeight - top) / rowPx));
    visibleSymbols.clear();
    for (const s of symbols.slice(0, fit)) visibleSymbols.add(s);
  }, [symbols]);
  useEffect(() => {
    const b = bench();
    if (!b) return;
    b.info.page = 'naive';
    b.info.symbols = symbols?.length ?? 0;
    if (error) b.info.error = error;
  }, [symbols, error]);

  if (error) return <pre>{error}</pre>;
  if (!symbols) return null;
  return (
    <>
      <PaintProbe />
      <AllRows symbols={symbols} />
    </>
  );
}

const rootEl = document.getElementById('root');
if (!rootEl) throw new Error('#root missing');
createRoot(rootEl).render(
  <Provider store={store}>
    <NaiveApp />
  </Provider>,
);
