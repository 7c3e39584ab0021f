// @vitest-environment jsdom
/**
 * A market row re-renders only when its own symbol's quote changes: quotes live in an entity
 * adapter replaced with setMany, each row selects its own entity through a memoized selector.
 * Also: stream batches are auto-batched, so many batches notify subscribers once. The same holds
 * for the detail screen's five-level book (another symbol's book never re-renders it) and its
 * trade tape (a batch of new prints renders the new rows only; the rows on screen stay as they
 * are). A ranking row is not re-rendered by a heartbeat that only moves the clock's time, nor by
 * its quote: it draws each new one into its DOM.
 */
import { autoBatchEnhancer, configureStore } from '@reduxjs/toolkit';
import { act, cleanup, render, screen } from '@testing-library/react';
import { Profiler } from 'react';
import { Provider } from 'react-redux';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Depth, Quote, Trade } from '../../contract/market';
import { replayClock } from './support/replay-clock';
import { en } from './support/strings';
import { setupI18n } from '../../src/app/i18n';
import { DepthBook } from '../../src/features/market/components/depth-book';
import { RankingRow, useRankingRowText } from '../../src/features/market/components/ranking-row';
import { TAPE_ROWS, TradeTape } from '../../src/features/market/components/trade-tape';
import { formatDateTime } from '../../src/lib/format';
import type * as Format from '../../src/lib/format';
import { QuoteRow } from '../../src/live/components/quote-row';
import {
  clockSeen,
  connChanged,
  depthReceived,
  marketReducers,
  quoteOf,
  quotesReceived,
} from '../../src/live/quotes-slice';
import type { TradeBatch } from '../../workers/protocol';

// The worker bridge is replaced by one RxJS Subject per channel (no Worker in jsdom).
vi.mock('../../src/live/worker-bridge', async () => {
  const { Subject, NEVER, filter } = await import('rxjs');
  const trades = new Subject<TradeBatch>();
  return {
    tradeBatches: trades,
    marketStream: (channel: string) =>
      channel === 'trades' ? trades.pipe(filter((b) => b.channel === 'trades')) : NEVER,
    marketStatus$: () => NEVER,
  };
});
// formatDateTime runs once per tape row render: counting its calls counts row renders.
vi.mock('../../src/lib/format', async (importOriginal) => {
  const m = await importOriginal<typeof Format>();
  return { ...m, formatDateTime: vi.fn(m.formatDateTime) };
});
const { tradeBatches } = (await import('../../src/live/worker-bridge')) as unknown as {
  tradeBatches: { next(b: TradeBatch): void };
};

beforeAll(async () => {
  await setupI18n('en', { en });
});

function quote(symbol: string, lastMinor: number, ts: number): Quote {
  return {
    symbol,
    name: `N${symbol}`,
    kind: 'stock',
    lastMinor,
    openMinor: 100_000,
    highMinor: 110_000,
    lowMinor: 90_000,
    prevCloseMinor: 100_000,
    limitUpMinor: 110_000,
    limitDownMinor: 90_000,
    bidMinor: lastMinor - 50,
    askMinor: lastMinor,
    volumeShares: 1_000,
    turnoverMinor: 0,
    ts,
    replayDate: '2024-05-16',
    phase: 'open',
    traded: true,
  };
}

function makeStore() {
  return configureStore({
    reducer: marketReducers,
    enhancers: (gde) => gde({ autoBatch: false }),
  });
}

afterEach(cleanup);

describe('QuoteRow render isolation', () => {
  it('does not re-render a row when another symbol changes', () => {
    const store = makeStore();
    store.dispatch(quotesReceived([quote('2330', 100_000, 1), quote('2317', 20_000, 1)]));
    const renders: Record<string, number> = { '2330': 0, '2317': 0 };
    const onRender = (id: string) => {
      renders[id] = (renders[id] ?? 0) + 1;
    };
    render(
      <Provider store={store}>
        {['2330', '2317'].map((s) => (
          <Profiler key={s} id={s} onRender={onRender}>
            <QuoteRow symbol={s} />
          </Profiler>
        ))}
      </Provider>,
    );
    expect(renders).toEqual({ '2330': 1, '2317': 1 });
    expect(screen.getByTestId('quote-last-2330').textContent).toBe('1,000.00');

    for (let i = 2; i <= 20; i++) {
      act(() => {
        store.dispatch(quotesReceived([quote('2317', 20_000 + i * 5, i)]));
      });
    }
    expect(screen.getByTestId('quote-last-2317').textContent).toBe('201.00');
    expect(renders['2317']).toBe(20);
    expect(renders['2330']).toBe(1);

    // Its own change re-renders it exactly once.
    act(() => {
      store.dispatch(quotesReceived([quote('2330', 100_500, 2)]));
    });
    expect(renders['2330']).toBe(2);
    expect(screen.getByTestId('quote-last-2330').textContent).toBe('1,005.00');
    expect(screen.getByTestId('market-row-2330')).toBeTruthy();
  });

  it('ignores a quote older than the one held (a stale REST page never rolls the price back)', () => {
    const store = makeStore();
    store.dispatch(quotesReceived([quote('2330', 101_000, 10)]));
    store.dispatch(quotesReceived([quote('2330', 99_000, 5)]));
    expect(quoteOf(store.getState().quotes, '2330')?.lastMinor).toBe(101_000);
  });

  /** The market reducers with auto-batched notifications once per animation frame, and a count of them. */
  function frameBatchedStore() {
    const store = configureStore({
      reducer: marketReducers,
      enhancers: (gde) => gde({ autoBatch: false }).concat(autoBatchEnhancer({ type: 'raf' })),
    });
    const seen = { notified: 0 };
    store.subscribe(() => seen.notified++);
    return { store, seen };
  }

  it('notifies subscribers once for many auto-batched quote batches', async () => {
    const { store, seen } = frameBatchedStore();
    for (let i = 1; i <= 10; i++) store.dispatch(quotesReceived([quote('2330', 100_000 + i * 50, i)]));
    expect(seen.notified).toBe(0);
    // Wait for the animation frame's notification (a condition, not a fixed sleep).
    await vi.waitFor(() => expect(seen.notified).toBeGreaterThan(0));
    expect(seen.notified).toBe(1);
    expect(quoteOf(store.getState().quotes, '2330')?.lastMinor).toBe(100_500);
  });

  it("notifies a REST answer's clock with the frame's quotes, not at once", async () => {
    const { store, seen } = frameBatchedStore();
    store.dispatch(quotesReceived([quote('2330', 100_000, 1)]));
    store.dispatch(clockSeen(replayClock('2024-05-16', 5)));
    expect(seen.notified).toBe(0);
    expect(store.getState().marketStatus.clock?.now).toBe(5);
    await vi.waitFor(() => expect(seen.notified).toBeGreaterThan(0));
    expect(seen.notified).toBe(1);
  });
});

function depth(symbol: string, bidLots: number, ts: number): Depth {
  const levels = (from: number, step: number) =>
    [0, 1, 2, 3, 4].map((i) => ({ priceMinor: from + i * step, volumeLots: bidLots + i }));
  return { symbol, ts, bids: levels(99_950, -50), asks: levels(100_000, 50) };
}

/** A ranking row in the `change` columns, with the list's words. */
function Row({ symbol }: { symbol: string }) {
  return <RankingRow symbol={symbol} columns="change" text={useRankingRowText()} onOpen={() => {}} />;
}

describe('RankingRow and the market clock', () => {
  const clock = (now: number, replayDate: string) => replayClock(replayDate, now);

  it('re-renders on a new replayed date, not on a heartbeat that only moves the time', () => {
    const store = makeStore();
    store.dispatch(quotesReceived([quote('2330', 100_000, 1)]));
    store.dispatch(clockSeen(clock(1_000, '2024-05-16')));
    let renders = 0;
    render(
      <Provider store={store}>
        <Profiler id="row" onRender={() => renders++}>
          <Row symbol="2330" />
        </Profiler>
      </Provider>,
    );
    expect(renders).toBe(1);
    for (let i = 2; i <= 10; i++) {
      act(() => {
        store.dispatch(
          connChanged({ conn: 'live', attempt: 0, clock: clock(i * 1_000, '2024-05-16'), lastDataAt: i }),
        );
      });
    }
    expect(renders).toBe(1);
    act(() => {
      store.dispatch(
        connChanged({ conn: 'live', attempt: 0, clock: clock(11_000, '2024-05-17'), lastDataAt: 11 }),
      );
    });
    expect(renders).toBe(2);
    expect(screen.getByTestId('row-replay-date').textContent).toContain('2024-05-17');
  });
});

describe('RankingRow draws its quotes without re-rendering', () => {
  it("writes each new quote into the row, and a row given another symbol shows that symbol's figures", () => {
    const store = makeStore();
    store.dispatch(quotesReceived([quote('2330', 100_000, 1), quote('2317', 100_000, 1)]));
    let renders = 0;
    const view = render(
      <Provider store={store}>
        <Profiler id="row" onRender={() => renders++}>
          <Row symbol="2330" />
        </Profiler>
      </Provider>,
    );
    expect(screen.getByTestId('quote-last-2330').textContent).toBe('1,000.00');
    expect(screen.getByTestId('quote-pct-2330').textContent).toBe('0.00%');

    act(() => {
      store.dispatch(quotesReceived([quote('2330', 105_000, 2)]));
    });
    expect(renders).toBe(1);
    const last = screen.getByTestId('quote-last-2330');
    expect(last.textContent).toBe('1,050.00');
    expect(screen.getByTestId('quote-pct-2330').textContent).toBe('+5.00%');
    expect(last.style.color).toBe('rgb(207, 19, 34)'); // up: red (TWD)
    act(() => {
      store.dispatch(quotesReceived([{ ...quote('2330', 106_000, 3), traded: false }]));
    });
    expect(screen.getByTestId('market-row-2330').dataset.traded).toBe('false');
    expect(screen.getByTestId('quote-pct-2330').textContent).toBe('No trade');
    expect(renders).toBe(1);

    // The row now shows 2317, whose figures are what React last rendered for 2330 (1,000.00,
    // flat): React leaves the DOM as it is, the painter draws them.
    view.rerender(
      <Provider store={store}>
        <Profiler id="row" onRender={() => renders++}>
          <Row symbol="2317" />
        </Profiler>
      </Provider>,
    );
    const row = screen.getByTestId('market-row-2317');
    expect(row.dataset.traded).toBeUndefined();
    expect(row.querySelector('.quote-title')?.textContent).toBe('N2317');
    expect(screen.getByTestId('quote-last-2317').textContent).toBe('1,000.00');
    expect(screen.getByTestId('quote-last-2317').style.color).toBe('rgb(107, 107, 107)'); // flat: grey
    expect(screen.getByTestId('quote-pct-2317').textContent).toBe('0.00%');
    act(() => {
      store.dispatch(quotesReceived([quote('2330', 90_000, 4)]));
    });
    expect(screen.getByTestId('quote-last-2317').textContent).toBe('1,000.00');
  });
});

describe('RankingRow marks an estimated reference', () => {
  it('from the first render and when a quote turns it on or off, without re-rendering', () => {
    const store = makeStore();
    store.dispatch(quotesReceived([{ ...quote('6918', 13_500, 1), referenceEstimated: true }]));
    let renders = 0;
    render(
      <Provider store={store}>
        <Profiler id="row" onRender={() => renders++}>
          <Row symbol="6918" />
        </Profiler>
      </Provider>,
    );
    const row = screen.getByTestId('market-row-6918');
    expect(row.dataset.refEstimated).toBe('true');
    expect(screen.getByTestId('ref-est-6918').textContent).toBe(en.ranking.refEstimated);
    act(() => {
      store.dispatch(quotesReceived([quote('6918', 13_600, 2)]));
    });
    expect(row.dataset.refEstimated).toBeUndefined();
    act(() => {
      store.dispatch(quotesReceived([{ ...quote('6918', 13_700, 3), referenceEstimated: true }]));
    });
    expect(row.dataset.refEstimated).toBe('true');
    expect(renders).toBe(1);
  });
});

describe('DepthBook render isolation', () => {
  it('shows five levels a side with bars, and re-renders only for its own symbol', () => {
    const store = makeStore();
    store.dispatch(depthReceived([depth('2330', 10, 1), depth('2317', 10, 1)]));
    let renders = 0;
    render(
      <Provider store={store}>
        <Profiler id="book" onRender={() => renders++}>
          <DepthBook symbol="2330" prevCloseMinor={100_000} />
        </Profiler>
      </Provider>,
    );
    expect(renders).toBe(1);
    for (const side of ['bid', 'ask'])
      for (let n = 1; n <= 5; n++) expect(screen.getByTestId(`depth-${side}-${n}`)).toBeTruthy();
    // The largest level (14 lots, the fifth) has the full-width bar.
    expect(
      (screen.getByTestId('depth-bid-5').querySelector('.depth-bar') as HTMLElement).style.transform,
    ).toBe('scaleX(1)');

    for (let i = 2; i <= 20; i++) {
      act(() => {
        store.dispatch(depthReceived([depth('2317', 10 + i, i)]));
      });
    }
    expect(renders).toBe(1);
    act(() => {
      store.dispatch(depthReceived([depth('2330', 20, 2)]));
    });
    expect(renders).toBe(2);
    expect(screen.getByTestId('depth-bid-1').textContent).toContain('20');
  });
});

describe('TradeTape rows', () => {
  const print = (i: number, side: Trade['side']): Trade => ({
    ts: Date.UTC(2026, 6, 24, 2, 0, i),
    priceMinor: 100_000 + (i % 3) * 50,
    volumeShares: 1000 * (1 + (i % 4)),
    side,
  });
  const push = (items: Trade[], snapshot: boolean) =>
    act(() => {
      tradeBatches.next({
        channel: 'trades',
        items: [{ symbol: '2330', snapshot, items }],
        receivedAt: [Date.now()],
      });
    });

  it('renders new prints only, newest first, coloured by side', async () => {
    const store = makeStore();
    const rowRenders = vi.mocked(formatDateTime);
    render(
      <Provider store={store}>
        <TradeTape symbol="2330" prevCloseMinor={100_000} />
      </Provider>,
    );
    expect(screen.getByText('No trades yet')).toBeTruthy();
    push([print(1, 'buy'), print(2, 'sell'), print(3, null)], true);
    expect(screen.getAllByTestId('tape-row')).toHaveLength(3);
    rowRenders.mockClear();

    push([print(4, 'buy')], false);
    expect(rowRenders).toHaveBeenCalledTimes(1); // the new row only
    const rows = screen.getAllByTestId('tape-row');
    expect(rows.map((r) => r.getAttribute('data-side'))).toEqual(['buy', 'none', 'sell', 'buy']);
    expect(rows[0]!.textContent).toContain('10:00:04'); // newest first, Taiwan time
    expect((rows[0]!.querySelector('.tape-lots') as HTMLElement).style.color).toBe('rgb(207, 19, 34)');
    expect((rows[2]!.querySelector('.tape-lots') as HTMLElement).style.color).toBe('rgb(10, 125, 60)');

    rowRenders.mockClear();
    push(
      Array.from({ length: 20 }, (_, i) => print(10 + i, 'sell')),
      false,
    );
    expect(screen.getAllByTestId('tape-row')).toHaveLength(TAPE_ROWS);
    expect(rowRenders).toHaveBeenCalledTimes(TAPE_ROWS); // only the rows that came into view
  });
});
