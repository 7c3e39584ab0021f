/**
 * The equity line of the asset overview: the TWD value at each trading day's close
 * (wallet/history), drawn by klinecharts (the chart library the stock detail already loads) as
 * its `area` candle type, one daily bar per snapshot with open = high = low = close = the value.
 * Loaded with the wallet screen only.
 */
import { dispose, init, type Chart, type KLineData } from 'klinecharts';
import { DateTime } from 'luxon';
import { memo, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { TWSE_ZONE } from '../../../../contract/trading-session';

export interface EquityPoint {
  tradeDate: string;
  valueTwdMinor: number;
}

/** A snapshot as a klinecharts bar at 13:30 of its trading date (Asia/Taipei), in NT$. */
export function toBar(p: EquityPoint): KLineData {
  const v = p.valueTwdMinor / 100;
  const ts = DateTime.fromISO(`${p.tradeDate}T13:30`, { zone: TWSE_ZONE }).toMillis();
  return { timestamp: ts, open: v, high: v, low: v, close: v };
}

/** The chart container, with the chart instance attached for end-to-end tests. */
export type EquityHost = HTMLDivElement & { equityChart?: Chart };

export const EquityChart = memo(function EquityChart({ points }: { points: readonly EquityPoint[] }) {
  const { t, i18n } = useTranslation();
  const el = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const host = el.current as EquityHost | null;
    if (!host) return;
    const chart = init(host, {
      locale: i18n.language === 'en' ? 'en-US' : 'zh-CN',
      styles: {
        grid: { horizontal: { color: '#f0f0f0' }, vertical: { show: false } },
        candle: {
          type: 'area',
          priceMark: { high: { show: false }, low: { show: false } },
          tooltip: { showRule: 'none' },
        },
      },
    });
    if (!chart) return;
    host.equityChart = chart;
    const bars = points.map(toBar);
    chart.setDataLoader({
      getBars: ({ type, callback }) => callback(type === 'init' ? bars : [], false),
    });
    chart.setSymbol({ ticker: 'equity', pricePrecision: 0, volumePrecision: 0 });
    chart.setPeriod({ type: 'day', span: 1 });
    const onResize = () => chart.resize();
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      delete host.equityChart;
      dispose(chart);
    };
  }, [points, i18n.language]);

  return (
    <div
      ref={el}
      className="equity-chart"
      data-testid="wallet-equity-chart"
      role="img"
      aria-label={t('wallet.equity')}
    />
  );
});
