// @vitest-environment jsdom
/**
 * A market row re-renders only when its own symbol's quote changes: quotes live in an entity
 * adapter replaced with setMany, each row selects its own entity through a memoized selector.
 * Also: stream batches are auto-batched, so many batches notify subscribers once.
 */
import { autoBatchEnhancer, configureStore } from '@reduxjs/toolkit';
import { act, cleanup, render, screen } from '@testing-library/react';
import { Profiler } from 'react';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it } from 'vitest';
import type { Quote } from '../../contract/market';
import { QuoteRow } from '../../src/market/components/quote-row';
import { marketReducers, quotesReceived } from '../../src/market/quotes-slice';

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
    expect(store.getState().quotes.entities['2330']?.lastMinor).toBe(101_000);
  });

  it('notifies subscribers once for many auto-batched quote batches', async () => {
    const store = configureStore({
      reducer: marketReducers,
      enhancers: (gde) => gde({ autoBatch: false }).concat(autoBatchEnhancer({ type: 'raf' })),
    });
    let notified = 0;
    store.subscribe(() => notified++);
    for (let i = 1; i <= 10; i++) store.dispatch(quotesReceived([quote('2330', 100_000 + i * 50, i)]));
    expect(notified).toBe(0);
    await new Promise((r) => setTimeout(r, 50));
    expect(notified).toBe(1);
    expect(store.getState().quotes.entities['2330']?.lastMinor).toBe(100_500);
  });
});
