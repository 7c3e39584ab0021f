/**
 * Candles with klinecharts 10, fed imperatively: history through the data loader's `getBars`
 * (market/candles), live bars through `subscribeBar` (the worker's `candles` channel). React
 * renders the container once; ticks never re-render React. TWD colours: up red, down green,
 * volume bars included.
 */
import { dispose, init, registerLocale, type Chart, type KLineData, type Period } from 'klinecharts';
import { memo, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import type { Subscription } from 'rxjs';
import type { Candle, CandlePeriod } from '../../../../contract/market';
import { api } from '../../../api/api';
import { upDownColors } from '../../../lib/colors';
import { marketStream } from '../../../market/worker-bridge';

const BARS_PER_LOAD = 300;

const PERIODS: Record<CandlePeriod, Period> = {
  '1m': { type: 'minute', span: 1 },
  '3m': { type: 'minute', span: 3 },
  '15m': { type: 'minute', span: 15 },
  '30m': { type: 'minute', span: 30 },
  '1d': { type: 'day', span: 1 },
  '1M': { type: 'month', span: 1 },
  '1y': { type: 'year', span: 1 },
};

export function toChartPeriod(p: CandlePeriod): Period {
  return PERIODS[p];
}

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

export const KlineChart = memo(function KlineChart({
  symbol,
  period,
}: {
  symbol: string;
  period: CandlePeriod;
}) {
  const { t, i18n } = useTranslation();
  const dispatch = useDispatch();
  const el = useRef<HTMLDivElement>(null);
  const chartRef = useRef<Chart | null>(null);

  // Create the chart once; the data loader closes over refs, never over React state.
  useEffect(() => {
    if (!el.current) return;
    ensureLocale();
    const { up, down } = upDownColors('TWD');
    const chart = init(el.current, {
      locale: i18n.language === 'en' ? 'en-US' : 'zh-TW',
      timezone: 'Asia/Taipei',
      styles: {
        grid: { horizontal: { color: '#f0f0f0' }, vertical: { color: '#f0f0f0' } },
        candle: {
          bar: {
            upColor: up,
            downColor: down,
            noChangeColor: '#8c8c8c',
            upBorderColor: up,
            downBorderColor: down,
            noChangeBorderColor: '#8c8c8c',
            upWickColor: up,
            downWickColor: down,
            noChangeWickColor: '#8c8c8c',
          },
          priceMark: { last: { upColor: up, downColor: down, noChangeColor: '#8c8c8c' } },
          tooltip: { showRule: 'follow_cross' },
        },
        indicator: {
          ohlc: { upColor: up, downColor: down, noChangeColor: '#8c8c8c' },
          bars: [{ upColor: up, downColor: down, noChangeColor: '#8c8c8c' }],
        },
      },
    });
    if (!chart) return;
    chartRef.current = chart;
    const subs = new Map<string, Subscription>();
    const keyOf = (ticker: string, p: Period) => `${ticker}:${fromChartPeriod(p)}`;

    chart.setDataLoader({
      getBars: async ({ type, timestamp, symbol: sym, period: p, callback }) => {
        if (type !== 'init' && type !== 'forward') {
          callback([], false);
          return;
        }
        const res = await dispatch(
          api.endpoints.candles.initiate(
            {
              symbol: sym.ticker,
              period: fromChartPeriod(p),
              limit: BARS_PER_LOAD,
              before: type === 'forward' && timestamp !== null ? timestamp : undefined,
            },
            { subscribe: false, forceRefetch: true },
          ) as never,
        );
        const items = ((res as { data?: { items: Candle[] } }).data?.items ?? [])
          .slice()
          .sort((a, b) => a.ts - b.ts);
        callback(items.map(toKLine), { forward: items.length >= BARS_PER_LOAD, backward: false });
      },
      subscribeBar: ({ symbol: sym, period: p, callback }) => {
        const key = keyOf(sym.ticker, p);
        subs.get(key)?.unsubscribe();
        subs.set(
          key,
          marketStream('candles', { symbols: [sym.ticker], period: fromChartPeriod(p) }).subscribe(
            (batch) => {
              for (const u of batch.items) for (const c of u.items) callback(toKLine(c));
            },
          ),
        );
      },
      unsubscribeBar: ({ symbol: sym, period: p }) => {
        const key = keyOf(sym.ticker, p);
        subs.get(key)?.unsubscribe();
        subs.delete(key);
      },
    });
    chart.createIndicator('VOL');

    const onResize = () => chart.resize();
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      for (const s of subs.values()) s.unsubscribe();
      subs.clear();
      chartRef.current = null;
      dispose(chart);
    };
    // The chart is created once per mount; symbol/period/language are applied below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    chartRef.current?.setLocale(i18n.language === 'en' ? 'en-US' : 'zh-TW');
  }, [i18n.language]);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    chart.setSymbol({ ticker: symbol, pricePrecision: 2, volumePrecision: 0 });
  }, [symbol]);

  useEffect(() => {
    chartRef.current?.setPeriod(toChartPeriod(period));
  }, [period]);

  return <div ref={el} className="kline" data-testid="kline-chart" aria-label={t('detail.chart')} />;
});
