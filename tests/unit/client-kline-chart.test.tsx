// @vitest-environment jsdom
/**
 * The candle chart is fed imperatively: React renders it once, live bars go straight to the
 * chart. Switching period loads that period (a slower answer for the previous one is dropped).
 * After a reconnect the worker's candle snapshot leaves the chart with no missing candle:
 * new bars are appended in order; missing or changed older bars re-initialise the chart with the
 * corrected bars; a snapshot that starts after the chart's last bar reloads from market/candles.
 *
 * The chart is created with its first bars, so klinecharts draws it once at the start.
 *
 * klinecharts is replaced by a small fake with its data-loader semantics (init → getBars →
 * subscribeBar; a live bar updates the last bar or appends a newer one; resetData re-inits);
 * the worker bridge by a Subject; REST by a fetch stub.
 */
import { act, cleanup, render } from '@testing-library/react';
import type { KLineData } from 'klinecharts';
import { Profiler } from 'react';
import { Provider } from 'react-redux';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Candle, CandlePeriod } from '../../contract/market';
import { en } from './support/strings';
import { setupI18n } from '../../src/app/i18n';
import { createAppStore } from '../../src/app/store';
import { KlineChart, planCandleSnapshot, toKLine } from '../../src/features/market/components/kline-chart';
import type { CandleBatch } from '../../workers/protocol';

interface LoaderLike {
  getBars(p: {
    type: string;
    timestamp: number | null;
    symbol: { ticker: string };
    period: { type: string; span: number };
    callback: (bars: KLineData[], more?: unknown) => void;
  }): unknown;
  subscribeBar(p: { symbol: { ticker: string }; period: unknown; callback: (b: KLineData) => void }): void;
  unsubscribeBar(p: { symbol: { ticker: string }; period: unknown }): void;
}

/** The subset of klinecharts 10's chart the component uses, with its data-loader behaviour. */
class FakeChart {
  data: KLineData[] = [];
  loader: LoaderLike | null = null;
  symbol: { ticker: string } | null = null;
  period: { type: string; span: number } | null = null;
  subscribed: { symbol: { ticker: string }; period: unknown } | null = null;
  resets = 0;
  setDataLoader(l: LoaderLike) {
    this.reload(() => (this.loader = l));
  }
  setSymbol(s: { ticker: string }) {
    this.reload(() => (this.symbol = s));
  }
  setPeriod(p: { type: string; span: number }) {
    this.reload(() => (this.period = p));
  }
  resetData() {
    this.resets++;
    this.reload();
  }
  private reload(change?: () => void) {
    if (this.subscribed && this.loader) this.loader.unsubscribeBar(this.subscribed);
    this.subscribed = null;
    change?.();
    const { loader, symbol, period } = this;
    if (!loader || !symbol || !period) return;
    void loader.getBars({
      type: 'init',
      timestamp: null,
      symbol,
      period,
      callback: (bars) => {
        this.data = bars;
        this.subscribed = { symbol, period };
        loader.subscribeBar({ symbol, period, callback: (b) => this.update(b) });
      },
    });
  }
  private update(b: KLineData) {
    const last = this.data[this.data.length - 1];
    if (!last || b.timestamp > last.timestamp) this.data = [...this.data, b];
    else if (b.timestamp === last.timestamp) this.data = [...this.data.slice(0, -1), b];
  }
  getDataList() {
    return this.data;
  }
  createIndicator() {}
  setPaneOptions() {}
  overrideYAxis() {}
  overrideXAxis() {}
  resize() {}
  setLocale() {}
}

const charts = vi.hoisted(() => ({ list: [] as unknown[] }));
vi.mock('klinecharts', () => ({
  init: () => {
    const c = new FakeChart();
    charts.list.push(c);
    return c;
  },
  dispose: () => undefined,
  registerLocale: () => undefined,
}));
vi.mock('../../src/live/worker-bridge', async () => {
  const { Subject } = await import('rxjs');
  const candles = new Subject<CandleBatch>();
  return { candleBatches: candles, marketStream: () => candles, marketStatus$: () => candles };
});
const { candleBatches } = (await import('../../src/live/worker-bridge')) as unknown as {
  candleBatches: { next(b: CandleBatch): void; observed: boolean };
};
const chart = () => charts.list[charts.list.length - 1] as FakeChart;

const MIN = 60_000;
const T0 = Date.UTC(2026, 6, 24, 1, 0); // 09:00 Taipei
const candle = (i: number, period: CandlePeriod = '1m', close = 100_000 + i * 50): Candle => {
  const span = { '1m': 1, '3m': 3, '15m': 15, '30m': 30, '1d': 1440, '1M': 1440, '1y': 1440 }[period];
  return {
    ts: T0 + i * span * MIN,
    openMinor: 100_000,
    highMinor: Math.max(100_000, close),
    lowMinor: Math.min(100_000, close),
    closeMinor: close,
    volumeShares: 1000 * (i + 1),
    turnoverMinor: null,
  };
};
const range = (from: number, to: number, period: CandlePeriod = '1m') =>
  Array.from({ length: to - from + 1 }, (_, k) => candle(from + k, period));
const tsOf = (bars: readonly { timestamp: number }[]) => bars.map((b) => (b.timestamp - T0) / MIN);

/** market/candles answers: per period, the bars and an optional gate to hold the answer. */
let server: Partial<Record<CandlePeriod, { items: Candle[]; gate?: Promise<void> }>> = {};
let candleCalls: { period: CandlePeriod }[] = [];

function pushCandles(period: CandlePeriod, items: Candle[], snapshot: boolean) {
  act(() => {
    candleBatches.next({
      channel: 'candles',
      items: [{ symbol: '2330', period, snapshot, items }],
      receivedAt: [Date.now()],
    });
  });
}

async function flush() {
  await act(async () => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
  });
}

beforeAll(async () => {
  await setupI18n('en', { en });
});
beforeEach(() => {
  charts.list = [];
  server = {};
  candleCalls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as { period: CandlePeriod };
      candleCalls.push(body);
      const answer = server[body.period] ?? { items: [] };
      await answer.gate;
      return new Response(
        JSON.stringify({
          status: 1,
          msg: 'ok',
          data: { symbol: '2330', period: body.period, items: answer.items },
        }),
        { status: 200 },
      );
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderChart(period: CandlePeriod) {
  const store = createAppStore({ storagePrefix: 'test_' });
  let renders = 0;
  const ui = (p: CandlePeriod) => (
    <Provider store={store}>
      <Profiler id="chart" onRender={() => renders++}>
        <KlineChart symbol="2330" period={p} />
      </Profiler>
    </Provider>
  );
  const r = render(ui(period));
  return { renders: () => renders, setPeriod: (p: CandlePeriod) => r.rerender(ui(p)) };
}

describe('KlineChart', () => {
  it('loads the period shown; a slower answer for the previous period is dropped', async () => {
    let open!: () => void;
    server['1m'] = { items: range(0, 9), gate: new Promise<void>((r) => (open = r)) };
    server['3m'] = { items: range(0, 3, '3m') };
    const c = renderChart('1m');
    c.setPeriod('3m');
    await flush();
    expect(chart().period).toEqual({ type: 'minute', span: 3 });
    expect(tsOf(chart().getDataList())).toEqual([0, 3, 6, 9]);
    open();
    await flush();
    expect(tsOf(chart().getDataList())).toEqual([0, 3, 6, 9]); // not the 1-minute bars
    expect(candleCalls.map((b) => b.period)).toEqual(['1m', '3m']);
  });

  it('is created once its first bars are in, and loads them once', async () => {
    let open!: () => void;
    server['1m'] = { items: range(0, 9), gate: new Promise<void>((r) => (open = r)) };
    renderChart('1m');
    await flush();
    expect(charts.list).toHaveLength(0); // no empty chart drawn first
    open();
    await flush();
    expect(charts.list).toHaveLength(1);
    expect(tsOf(chart().getDataList())).toEqual(range(0, 9).map((_, i) => i));
    expect(candleCalls).toHaveLength(1); // the chart's first load took the fetched bars
  });

  it('live bars reach the chart without a React render', async () => {
    server['1m'] = { items: range(0, 4) };
    const c = renderChart('1m');
    await flush();
    const rendersAfterMount = c.renders();
    for (let i = 0; i < 50; i++)
      pushCandles('1m', [candle(4 + Math.floor(i / 10), '1m', 100_000 + i)], false);
    expect(tsOf(chart().getDataList())).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(chart().getDataList().at(-1)!.close).toBe(1_000.49);
    expect(c.renders()).toBe(rendersAfterMount);
  });

  it('after an outage, the snapshot appends every missed candle in order', async () => {
    server['1m'] = { items: range(0, 5) };
    renderChart('1m');
    await flush();
    pushCandles('1m', range(0, 12), true);
    expect(tsOf(chart().getDataList())).toEqual(range(0, 12).map((_, i) => i));
    expect(chart().resets).toBe(0);
  });

  it('a snapshot that shows missing or changed older bars re-initialises the chart with it', async () => {
    server['1m'] = { items: [...range(0, 2), ...range(4, 6)] }; // bar 3 missing
    renderChart('1m');
    await flush();
    const calls = candleCalls.length;
    const changed = range(0, 9);
    changed[5] = candle(5, '1m', 123_400);
    pushCandles('1m', changed, true);
    await flush();
    expect(chart().resets).toBe(1);
    expect(tsOf(chart().getDataList())).toEqual(changed.map((_, i) => i));
    expect(chart().getDataList()[5]!.close).toBe(1_234);
    expect(candleCalls.length).toBe(calls); // re-initialised from the snapshot, no REST call
    // The fresh subscription's snapshot matches: no second re-initialisation.
    pushCandles(
      '1m',
      range(0, 9).map((c, i) => (i === 5 ? changed[5]! : c)),
      true,
    );
    expect(chart().resets).toBe(1);
  });

  it('a snapshot that starts after the chart’s last bar reloads from market/candles', async () => {
    server['1m'] = { items: range(0, 3) };
    renderChart('1m');
    await flush();
    server['1m'] = { items: range(0, 20) };
    pushCandles('1m', range(10, 20), true);
    await flush();
    expect(chart().resets).toBe(1);
    expect(candleCalls.length).toBe(2);
    expect(tsOf(chart().getDataList())).toEqual(range(0, 20).map((_, i) => i));
  });
});

describe('planCandleSnapshot', () => {
  const k = (ids: number[], closeOf: (i: number) => number = (i) => 100_000 + i * 50) =>
    ids.map((i) => toKLine(candle(i, '1m', closeOf(i))));
  const seq = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

  it('appends the last held bar and newer ones when the overlap matches', () => {
    const plan = planCandleSnapshot(k(seq(0, 5)), k(seq(2, 8)));
    expect(plan.kind).toBe('append');
    expect(tsOf(plan.bars)).toEqual([5, 6, 7, 8]);
  });

  it('takes the whole snapshot into an empty chart', () => {
    expect(tsOf(planCandleSnapshot([], k(seq(0, 3))).bars)).toEqual([0, 1, 2, 3]);
  });

  it('ignores snapshot history older than the chart holds', () => {
    expect(planCandleSnapshot(k(seq(5, 9)), k(seq(0, 10))).kind).toBe('append');
  });

  it('replaces when a held bar is missing, extra or different inside the overlap', () => {
    expect(planCandleSnapshot(k([0, 1, 3, 4]), k(seq(0, 5)))).toMatchObject({ kind: 'replace' });
    expect(planCandleSnapshot(k(seq(0, 5)), k([0, 1, 3, 4, 5, 6])).kind).toBe('replace');
    const replaced = planCandleSnapshot(
      k(seq(0, 5)),
      k(seq(2, 7), (i) => (i === 3 ? 1 : 100_000 + i * 50)),
    );
    expect(replaced.kind).toBe('replace');
    expect(tsOf(replaced.bars)).toEqual(seq(0, 7)); // held history before the snapshot is kept
  });

  it('reloads when the snapshot starts after the chart’s last bar', () => {
    const plan = planCandleSnapshot(k(seq(0, 3)), k(seq(6, 9)));
    expect(plan.kind).toBe('reload');
    expect(tsOf(plan.bars)).toEqual([0, 1, 2, 3, 6, 7, 8, 9]);
  });
});
