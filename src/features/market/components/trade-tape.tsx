/**
 * The trade tape ("明細"): the symbol's latest prints, newest first: time (Taiwan), price
 * coloured by its change from the previous close (TWD: up red, down green), the change, and the
 * lots coloured by side (外盤, a buy at the ask: red; 內盤, a sell at the bid: green). Prints come
 * from the worker's `trades` channel (`useTrades`, outside Redux); rows are memoized on the
 * print object, so a new batch mounts only the new rows.
 */
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Trade } from '../../../../contract/market';
import { changeColor, GREEN, RED } from '../../../lib/colors';
import { formatDateTime, formatMinor, formatSignedMinor } from '../../../lib/format';
import { useTrades } from '../../../live/hooks';

/** Rows shown: enough to read the flow without pushing the chart far down the screen. */
export const TAPE_ROWS = 10;

/** Shares → lots: whole lots as integers, odd lots with three decimals. */
export function formatTradeLots(shares: number): string {
  return shares % 1000 === 0 ? String(shares / 1000) : (shares / 1000).toFixed(3);
}

const SIDE_COLOR = { buy: RED, sell: GREEN } as const;

const TradeRow = memo(function TradeRow({ trade, prevCloseMinor }: { trade: Trade; prevCloseMinor: number }) {
  const { t } = useTranslation();
  const change = trade.priceMinor - prevCloseMinor;
  const color = changeColor(change);
  return (
    <div className="tape-row" data-testid="tape-row" data-side={trade.side ?? 'none'}>
      <span className="tape-time">{formatDateTime(trade.ts).slice(11)}</span>
      <span className="tape-price" style={{ color }}>
        {formatMinor(trade.priceMinor)}
      </span>
      <span className="tape-change" style={{ color }}>
        {formatSignedMinor(change)}
      </span>
      <span className="tape-lots" style={trade.side ? { color: SIDE_COLOR[trade.side] } : undefined}>
        {formatTradeLots(trade.volumeShares)}
        <i className="tape-side">
          {trade.side === 'buy' ? t('detail.sideBuy') : trade.side === 'sell' ? t('detail.sideSell') : ''}
        </i>
      </span>
    </div>
  );
});

/** Keys for prints, which carry no id: their fields, and a counter for exact repeats. */
function keyed(trades: readonly Trade[]): { key: string; trade: Trade }[] {
  const seen = new Map<string, number>();
  return trades.map((trade) => {
    const base = `${trade.ts}:${trade.priceMinor}:${trade.volumeShares}:${trade.side ?? ''}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return { key: `${base}:${n}`, trade };
  });
}

/** The newest TAPE_ROWS prints of `symbol`, live while mounted. */
export const TradeTape = memo(function TradeTape({
  symbol,
  prevCloseMinor,
}: {
  symbol: string;
  prevCloseMinor: number;
}) {
  const { t } = useTranslation();
  const trades = useTrades(symbol);
  // Keys are made oldest first (stable as prints are appended), then shown newest first.
  const rows = keyed(trades.slice(-TAPE_ROWS)).reverse();
  return (
    <div className="tape" data-testid="trade-tape">
      <div className="tape-row tape-head">
        <span>{t('detail.tradeTime')}</span>
        <span>{t('detail.tradePrice')}</span>
        <span>{t('detail.tradeChange')}</span>
        <span>{t('detail.tradeLots')}</span>
      </div>
      {rows.length === 0 ? (
        <div className="center-pad muted small">{t('detail.noTrades')}</div>
      ) : (
        rows.map(({ key, trade }) => <TradeRow key={key} trade={trade} prevCloseMinor={prevCloseMinor} />)
      )}
    </div>
  );
});
