/**
 * Candles with klinecharts 10, fed imperatively: history through the data loader's `getBars`
 * (market/candles), live bars through `subscribeBar` (the worker's `candles` channel). React
 * renders the container once; ticks never re-render React. TWD colours: up red, down green,
 * volume bars included.
 *
 * After a reconnect the worker sends a candle `snapshot` (workers/protocol.ts CandleUpdate): the
 * chart then holds exactly the snapshot's bars from its first bar on (`planCandleSnapshot`).
 * New bars are appended in order; if older bars differ or are missing (bars lost in the outage),
 * the chart is re-initialised with the corrected list, so no candle goes missing.
 *
 * Touch: the chart takes horizontal drags (scroll the bars) and leaves vertical swipes to the
 * page (./vertical-swipe.ts, and CSS `touch-action: pan-y` on its canvas container).
 */
import { dispose, init, registerLocale, type Chart, type KLineData, type Period } from 'klinecharts';
import { memo, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import type { Dispatch } from '@reduxjs/toolkit';
import type { Subscription } from 'rxjs';
import type { Candle, CandlePeriod } from '../../../../contract/market';
import { api } from '../../../api/api';
import { FLAT, upDownColors } from '../../../lib/colors';
import { warmDateTimeFormat } from '../../../lib/format';
import { marketStream } from '../../../live/worker-bridge';
import { ticksInside, tickTextWidth } from './axis-ticks';
import { letVerticalSwipesScrollPage } from './vertical-swipe';

const BARS_PER_LOAD = 300;
/**
 * Live bars are delivered at most this often (ms; the worker conflates them per bar meanwhile):
 * each delivery redraws the chart's panes and axes, 15-45 ms of one task on a desktop CPU (four
 * times that on a mid-range phone), and a bar that moves every second reads as live. Prices
 * elsewhere on the screen (head, depth, tape) update every frame.
 */
const LIVE_BAR_FLUSH_MS = 1_000;

/** Pane id of the volume indicator. */
const VOL_PANE = 'vol';
/** Height of the volume pane (px of the 320 px chart). */
const VOL_PANE_HEIGHT = 110;
/**
 * Range added above the highest volume bar, as a ratio of the bars' range: 0.8 leaves the top
 * 0.8 / 1.8 of the pane (≈ 49 px) to the legend's two lines of text (name with its MAs, volume).
 */
const VOL_TOP_GAP = 0.8;
/** klinecharts' id of the candle pane. */
const CANDLE_PANE = 'candle_pane';
/**
 * Range added above the highest and below the lowest candle (ratios of the bars' range): each
 * leaves ≈ 30 px of the 210 px pane for the high or low mark's line and label (klinecharts'
 * default below is 0.1, which put the low's label over the lowest candles).
 */
const CANDLE_GAP = { top: 0.22, bottom: 0.22 };

const PERIODS: Record<CandlePeriod, Period> = {
  '1m': { type: 'minute', span: 1 },
  '3m': { type: 'minute', span: 3 },
  '15m': { type: 'minute', span: 15 },
  '30m': { type: 'minute', span: 30 },
  '1d': { type: 'day', span: 1 },
  '1M': { type: 'month', span: 1 },
  '1y': { type: 'year', span: 1 },
};

/** Our period name → klinecharts' period. */
export function toChartPeriod(p: CandlePeriod): Period {
  return PERIODS[p];
}

/** klinecharts' period → our period name ('1m' if it is not one of ours). */
export function fromChartPeriod(p: Period): CandlePeriod {
  for (const [k, v] of Object.entries(PERIODS))
    if (v.type === p.type && v.span === p.span) return k as CandlePeriod;
  return '1m';
}

/** Minor units → NT$ for the chart; shares → lots for the volume pane. */
export function toKLine(c: Candle): KLineData {
  return {
    timestamp: c.ts,
    open: c.openMinor / 100,
    high: c.highMinor / 100,
    low: c.lowMinor / 100,
    close: c.closeMinor / 100,
    volume: c.volumeShares / 1000,
    // Absent where the source has no turnover (contract: null), never invented.
    ...(c.turnoverMinor !== null ? { turnover: c.turnoverMinor / 100 } : {}),
  };
}

const sameBar = (a: KLineData, b: KLineData | undefined): boolean =>
  !!b &&
  a.timestamp === b.timestamp &&
  a.open === b.open &&
  a.high === b.high &&
  a.low === b.low &&
  a.close === b.close &&
  a.volume === b.volume;

/**
 * What to do with a candle snapshot (oldest first) given the bars the chart holds:
 * - `append`: the held bars before the chart's last bar already equal the snapshot's; feed
 *   `bars` (the last held bar's update and every newer bar, in order) through the subscription;
 * - `replace`: held bars differ or are missing inside the snapshot's range: re-initialise the
 *   chart with `bars` (held history before the snapshot + the snapshot);
 * - `reload`: the snapshot starts after the chart's last bar, so bars in between cannot be
 *   proven present: reload from market/candles (`bars` is the fallback if that fails).
 */
export type SnapshotPlan =
  | { kind: 'append'; bars: KLineData[] }
  | { kind: 'replace'; bars: KLineData[] }
  | { kind: 'reload'; bars: KLineData[] };

/** Plans how a candle snapshot meets the bars the chart holds (both oldest first): see SnapshotPlan. */
export function planCandleSnapshot(held: readonly KLineData[], snapshot: readonly KLineData[]): SnapshotPlan {
  const first = snapshot[0];
  const lastHeld = held[held.length - 1];
  if (!first) return { kind: 'append', bars: [] };
  if (!lastHeld) return { kind: 'append', bars: snapshot.slice() };
  const merged = held.filter((b) => b.timestamp < first.timestamp).concat(snapshot);
  if (first.timestamp > lastHeld.timestamp) return { kind: 'reload', bars: merged };
  // Compare where both have bars: from the later of the two first bars up to the chart's last.
  const from = Math.max(first.timestamp, held[0]!.timestamp);
  const inRange = (b: KLineData) => b.timestamp >= from && b.timestamp < lastHeld.timestamp;
  const snapByTs = new Map(snapshot.map((b) => [b.timestamp, b]));
  const heldInRange = held.filter(inRange);
  const consistent =
    heldInRange.length === snapshot.filter(inRange).length &&
    heldInRange.every((b) => sameBar(b, snapByTs.get(b.timestamp)));
  if (!consistent) return { kind: 'replace', bars: merged };
  return { kind: 'append', bars: snapshot.filter((b) => b.timestamp >= lastHeld.timestamp) };
}

let localeRegistered = false;
function ensureLocale(): void {
  if (localeRegistered) return;
  localeRegistered = true;
  registerLocale('zh-TW', {
    time: '時間：',
    open: '開：',
    high: '高：',
    low: '低：',
    close: '收：',
    volume: '量(張)：',
    change: '漲跌：',
    turnover: '成交額：',
    second: '秒',
    minute: '分',
    hour: '時',
    day: '日',
    week: '週',
    month: '月',
    year: '年',
  });
}

/** The chart container, with the chart instance attached for end-to-end tests. */
export type KlineHost = HTMLDivElement & { klineChart?: Chart };

/** Stream and load key of a symbol and period. */
const keyOf = (ticker: string, p: Period) => `${ticker}:${fromChartPeriod(p)}`;

/**
 * Bars to answer the chart's next `init` load with (`fetch`: ask market/candles first, these if
 * that fails; `more`: older bars may exist, default true).
 */
interface InitPreset {
  key: string;
  bars: KLineData[];
  fetch: boolean;
  more?: boolean;
}

/**
 * Up to BARS_PER_LOAD bars of `ticker` and `p` from market/candles, oldest first (`before`: only
 * older than that epoch ms); null when the request failed.
 */
async function fetchBars(
  dispatch: Dispatch,
  ticker: string,
  p: Period,
  before?: number,
): Promise<KLineData[] | null> {
  const res = await dispatch(
    api.endpoints.candles.initiate(
      { symbol: ticker, period: fromChartPeriod(p), limit: BARS_PER_LOAD, before },
      { subscribe: false, forceRefetch: true },
    ) as never,
  );
  const items = (res as { data?: { items: Candle[] } }).data?.items;
  return items
    ? items
        .slice()
        .sort((a, b) => a.ts - b.ts)
        .map(toKLine)
    : null;
}

/**
 * Creates the chart in `host` for `symbol` and `period`, its first load answered by `first`;
 * history through the data loader, live bars through the worker's candles stream. Returns its
 * disposal. The data loader closes over locals, never over React state.
 */
function mountChart(
  host: KlineHost,
  first: InitPreset,
  opts: { dispatch: Dispatch; language: string; symbol: string; period: CandlePeriod },
): (() => void) | null {
  const { dispatch } = opts;
  ensureLocale();
  const { up, down } = upDownColors('TWD');
  const chart = init(host, {
    locale: opts.language === 'en' ? 'en-US' : 'zh-TW',
    timezone: 'Asia/Taipei',
    styles: {
      grid: { horizontal: { color: '#f0f0f0' }, vertical: { color: '#f0f0f0' } },
      candle: {
        bar: {
          upColor: up,
          downColor: down,
          noChangeColor: FLAT,
          upBorderColor: up,
          downBorderColor: down,
          noChangeBorderColor: FLAT,
          upWickColor: up,
          downWickColor: down,
          noChangeWickColor: FLAT,
        },
        priceMark: { last: { upColor: up, downColor: down, noChangeColor: FLAT } },
        tooltip: { showRule: 'follow_cross' },
      },
      indicator: {
        ohlc: { upColor: up, downColor: down, noChangeColor: FLAT },
        // The VOL pane colours each volume bar by its candle's direction from these.
        bars: [{ upColor: up, downColor: down, noChangeColor: FLAT }],
      },
    },
  });
  if (!chart) return null;
  // klinecharts makes its container focusable with tabindex=1, which jumps it ahead of the whole
  // page in tab order; 0 keeps it focusable (keyboard zoom and scroll) in document order.
  for (const node of host.querySelectorAll('[tabindex="1"]')) node.setAttribute('tabindex', '0');
  host.klineChart = chart;
  const subs = new Map<string, Subscription>();

  /** Bumped by every `init` load: answers to an older load (another symbol or period) are dropped. */
  let loadSeq = 0;
  /** Set just before a (re-)initialisation: the next `init` load answers with these bars. */
  let initWith: InitPreset | null = first;

  chart.setDataLoader({
    getBars: async ({ type, timestamp, symbol: sym, period: p, callback }) => {
      // 'backward' (newer than the last bar) comes from the stream, never from REST.
      if (type === 'backward') {
        callback([], false);
        return;
      }
      if (type === 'init') loadSeq++;
      const seq = loadSeq;
      const key = keyOf(sym.ticker, p);
      const preset = type === 'init' && initWith?.key === key ? initWith : null;
      if (type === 'init') initWith = null;
      if (preset && !preset.fetch) {
        callback(preset.bars, { forward: preset.more ?? true, backward: false });
        return;
      }
      const bars = await fetchBars(
        dispatch,
        sym.ticker,
        p,
        type === 'forward' && timestamp !== null ? timestamp : undefined,
      );
      if (seq !== loadSeq) return; // a newer symbol/period (or reload) took over
      if (type === 'init' && !bars && preset) {
        callback(preset.bars, { forward: true, backward: false });
        return;
      }
      const got = bars ?? [];
      callback(got, { forward: got.length >= BARS_PER_LOAD, backward: false });
    },
    subscribeBar: ({ symbol: sym, period: p, callback }) => {
      const key = keyOf(sym.ticker, p);
      const cp = fromChartPeriod(p);
      subs.get(key)?.unsubscribe();
      subs.set(
        key,
        marketStream('candles', {
          symbols: [sym.ticker],
          period: cp,
          flushMs: LIVE_BAR_FLUSH_MS,
        }).subscribe((batch) => {
          for (const u of batch.items) {
            if (u.symbol !== sym.ticker || u.period !== cp) continue;
            if (!u.snapshot) {
              for (const c of u.items) callback(toKLine(c));
              continue;
            }
            const plan = planCandleSnapshot(chart.getDataList(), u.items.map(toKLine));
            if (plan.kind === 'append') {
              for (const b of plan.bars) callback(b);
            } else {
              // Re-initialise (unsubscribes this stream and subscribes a fresh one).
              initWith = { key, bars: plan.bars, fetch: plan.kind === 'reload' };
              chart.resetData();
              return;
            }
          }
        }),
      );
    },
    unsubscribeBar: ({ symbol: sym, period: p }) => {
      const key = keyOf(sym.ticker, p);
      subs.get(key)?.unsubscribe();
      subs.delete(key);
    },
  });
  // The VOL pane: its legend ("VOL(5,10,20) MA5 … / VOLUME: …") is drawn over the pane's top
  // rows, so the pane's y axis keeps a top gap (klinecharts AxisGap: a ratio of the range added
  // above the highest bar) that the legend sits in, clear of the bars; a fixed height keeps
  // that band readable.
  chart.createIndicator({ name: 'VOL', paneId: VOL_PANE });
  chart.setPaneOptions({ id: VOL_PANE, height: VOL_PANE_HEIGHT, minHeight: VOL_PANE_HEIGHT });
  chart.overrideYAxis({ paneId: VOL_PANE, gap: { top: VOL_TOP_GAP, bottom: 0 } });
  // The candle pane keeps room above the highest and below the lowest bar for the high/low
  // price marks, so their labels sit clear of the candles; a time label that would hang over the
  // pane's edge is dropped rather than cut.
  chart.overrideYAxis({ paneId: CANDLE_PANE, gap: CANDLE_GAP });
  chart.overrideXAxis({
    createTicks: ({ bounding, defaultTicks }) => ticksInside(defaultTicks, bounding.width, tickTextWidth),
  });

  const releaseSwipes = letVerticalSwipesScrollPage(host);
  const onResize = () => chart.resize();
  window.addEventListener('resize', onResize);
  chart.setSymbol({ ticker: opts.symbol, pricePrecision: 2, volumePrecision: 0 });
  chart.setPeriod(toChartPeriod(opts.period));
  return () => {
    releaseSwipes();
    window.removeEventListener('resize', onResize);
    for (const s of subs.values()) s.unsubscribe();
    subs.clear();
    delete host.klineChart;
    dispose(chart);
  };
}

/**
 * The candle chart of one symbol and period. Memoized on its props: nothing else re-renders it,
 * and market data never goes through React.
 *
 * The chart is created once the first bars of the symbol and period shown are in, so klinecharts
 * lays it out and draws it once with them. Created empty, it drew three times: empty, again when
 * the bars came, and once more when the wider price axis resized its canvases (75–110 ms each on a
 * desktop CPU, docs/adr/0028-candle-chart.md). Until then the container keeps its height.
 */
export const KlineChart = memo(function KlineChart({
  symbol,
  period,
}: {
  symbol: string;
  period: CandlePeriod;
}) {
  const { t, i18n } = useTranslation();
  const dispatch = useDispatch();
  const el = useRef<KlineHost>(null);
  const chartRef = useRef<Chart | null>(null);
  /** The symbol and period to show now (read when the chart is created, which may come later). */
  const want = useRef({ symbol, period });
  want.current = { symbol, period };
  /** Until the chart exists: fetches the first bars of `want` (no-op when already asked). */
  const firstLoad = useRef<(() => void) | null>(null);

  useEffect(() => {
    const host = el.current;
    if (!host) return;
    let disposeChart: (() => void) | null = null;
    let asked: string | null = null;
    let gone = false;
    // klinecharts makes an Intl.DateTimeFormat when the chart is created; the page's first one
    // initialises ICU. Paid here, in a task of its own while the first bars are on their way.
    const warm = setTimeout(warmDateTimeFormat, 0);
    const load = () => {
      const { symbol: s, period: p } = want.current;
      const key = keyOf(s, toChartPeriod(p));
      if (asked === key) return;
      asked = key;
      void fetchBars(dispatch, s, toChartPeriod(p)).then((bars) => {
        // Unmounted, or the symbol or period changed meanwhile (its own load answers).
        if (gone || asked !== key) return;
        firstLoad.current = null;
        disposeChart = mountChart(
          host,
          { key, bars: bars ?? [], fetch: bars === null, more: (bars?.length ?? 0) >= BARS_PER_LOAD },
          { dispatch, language: i18n.language, symbol: s, period: want.current.period },
        );
        chartRef.current = host.klineChart ?? null;
      });
    };
    firstLoad.current = load;
    load();
    return () => {
      gone = true;
      clearTimeout(warm);
      firstLoad.current = null;
      chartRef.current = null;
      disposeChart?.();
    };
    // The chart is created once per mount; symbol/period/language are applied below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    chartRef.current?.setLocale(i18n.language === 'en' ? 'en-US' : 'zh-TW');
  }, [i18n.language]);

  // Before the chart exists a change asks for the new first bars (an older answer is dropped).
  useEffect(() => {
    if (chartRef.current)
      chartRef.current.setSymbol({ ticker: symbol, pricePrecision: 2, volumePrecision: 0 });
    else firstLoad.current?.();
  }, [symbol]);

  useEffect(() => {
    if (chartRef.current) chartRef.current.setPeriod(toChartPeriod(period));
    else firstLoad.current?.();
  }, [period]);

  // A canvas chart: one image to assistive technology, named by its label.
  return (
    <div ref={el} className="kline" data-testid="kline-chart" role="img" aria-label={t('detail.chart')} />
  );
});
