/**
 * The three list tabs of /common/dayTrading: transactions (today's day-trade orders with their
 * state, the P&L marked to the live quote while holding and the realised P&L once offset, and the
 * market time they were entered: the replayed day's, never the server's wall clock), details (each offset pair: buy and sell legs, fees,
 * the day-trade tax and the net result, at market times) and already applied (the member's applications). Each is
 * an infinite list with pull-to-refresh and the spec's no-data placeholder.
 */
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DayTradeApplication, DayTradeDetail } from '../../../../contract/day-trading';
import type { Order } from '../../../../contract/trading';
import { unrealisedPnlMinor } from '../../../../contract/market-rules';
import { useQuotesQuery } from '../../../api/api';
import { useQuote, useQuoteStream, useSeedQuotes } from '../../../live/hooks';
import { instrumentName } from '../../../live/names-en';
import { changeColor, GREEN, RED } from '../../../lib/colors';
import {
  formatDateTime,
  formatMinor,
  formatMinorOrDash,
  formatSignedMinor,
  langOf,
} from '../../../lib/format';
import {
  useDayTradeApplicationsInfiniteQuery,
  useDayTradeDetailsInfiniteQuery,
  useDayTradeTransactionsInfiniteQuery,
} from '../api/day-trading-api';
import { InfiniteList } from '../../../ui/infinite-list';
import { StateTag } from './state-tag';

function SideTag({ side }: { side: Order['side'] }) {
  const { t } = useTranslation();
  return (
    <span className="side-tag" style={{ background: side === 'long' ? RED : GREEN }}>
      {t(`side.${side}`)}
    </span>
  );
}

function Cell({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="pos-cell">
      <div className="pos-k">{label}</div>
      <div className="pos-v" data-testid={testId}>
        {children}
      </div>
    </div>
  );
}

/**
 * A live day trade's P&L marked to the live quote (contract/market-rules.ts unrealisedPnlMinor,
 * the server's formula, before fees and tax); a closed one's realised gross P&L; null before a
 * fill or a price.
 */
export function dayTradePnl(o: Order, lastMinor: number | undefined): number | null {
  const live = o.status === 'holding' || o.status === 'closing';
  if (!live) return o.pnlMinor;
  if (o.openValueMinor === null || lastMinor === undefined || lastMinor <= 0) return null;
  return unrealisedPnlMinor(o.side, o.openValueMinor, lastMinor, o.shares);
}

function TransactionRow({ o, onOpen }: { o: Order; onOpen: (id: number) => void }) {
  const { t, i18n } = useTranslation();
  // Live rows follow the market feed; closed ones need no quote.
  const quote = useQuote(o.status === 'holding' || o.status === 'closing' ? o.symbol : '');
  const pnl = dayTradePnl(o, quote?.lastMinor);
  return (
    <div className="pos-row" data-testid={`dt-tx-${o.id}`} role="button" onClick={() => onOpen(o.id)}>
      <div className="pos-head">
        <SideTag side={o.side} />
        <span className="pos-name">{instrumentName(o, langOf(i18n.language))}</span>
        <span className="muted">{o.symbol}</span>
        <span className="muted small pos-meta">{t(`orderStatus.${o.status}`)}</span>
      </div>
      <div className="pos-grid">
        <Cell label={t('position.openPrice')}>{formatMinorOrDash(o.openPriceMinor)}</Cell>
        <Cell label={t('position.closePrice')}>{formatMinorOrDash(o.closePriceMinor)}</Cell>
        <Cell label={t('order.lots')}>{o.lots}</Cell>
        <Cell
          label={t(o.pnlMinor === null ? 'position.unrealisedPnl' : 'position.pnl')}
          testId={`dt-tx-pnl-${o.id}`}
        >
          <span style={{ color: changeColor(pnl) }}>{pnl === null ? '--' : formatSignedMinor(pnl)}</span>
        </Cell>
      </div>
      <div className="pos-foot">
        {/* Market time (the replayed day's), never the server's wall clock. */}
        <span className="muted small" data-testid={`dt-tx-time-${o.id}`}>
          {formatDateTime(o.marketAt ?? o.openedAt ?? o.createdAt)}
        </span>
      </div>
    </div>
  );
}

/** Today's day-trade orders; a tap opens the position detail. */
export function TransactionsList({ onOpen }: { onOpen: (id: number) => void }) {
  const q = useDayTradeTransactionsInfiniteQuery();
  // The live rows' quotes from the market feed: their P&L follows the price.
  const liveSymbols = useMemo(
    () =>
      Array.from(
        new Set(
          (q.data?.pages ?? [])
            .flatMap((p) => p.items)
            .filter((o) => o.status === 'holding' || o.status === 'closing')
            .map((o) => o.symbol),
        ),
      ),
    [q.data],
  );
  const { data: snap } = useQuotesQuery(liveSymbols, { skip: liveSymbols.length === 0 });
  useSeedQuotes(snap?.items);
  useQuoteStream(liveSymbols);
  return (
    <InfiniteList<Order>
      q={q}
      testId="dt-transactions"
      row={(o) => <TransactionRow key={o.id} o={o} onOpen={onOpen} />}
    />
  );
}

function DetailRow({ d }: { d: DayTradeDetail }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="pos-row dt-pair" data-testid={`dt-pair-${d.orderId}`}>
      <div className="pos-head">
        <SideTag side={d.side} />
        <span className="pos-name">{instrumentName(d, langOf(i18n.language))}</span>
        <span className="muted">{d.symbol}</span>
        <span className="muted small pos-meta">
          {t('position.lotsLev', { count: d.lots, lev: d.leverage })}
        </span>
      </div>
      <div className="dt-legs">
        <div>
          <span className="pos-k">{t('dayTrading.buy')}</span> {formatMinor(d.buyPriceMinor)}
          <div className="muted small">{formatDateTime(d.buyMarketAt)}</div>
        </div>
        <div>
          <span className="pos-k">{t('dayTrading.sell')}</span> {formatMinor(d.sellPriceMinor)}
          <div className="muted small">{formatDateTime(d.sellMarketAt)}</div>
        </div>
      </div>
      <div className="pos-grid">
        <Cell label={t('position.pnl')}>
          <span style={{ color: changeColor(d.pnlMinor) }}>{formatSignedMinor(d.pnlMinor)}</span>
        </Cell>
        <Cell label={t('position.fees')}>{formatMinor(d.feeMinor)}</Cell>
        <Cell label={t('dayTrading.dayTradeTax')} testId={`dt-pair-tax-${d.orderId}`}>
          {formatMinor(d.taxMinor)}
        </Cell>
        <Cell label={t('dayTrading.net')}>
          <span style={{ color: changeColor(d.netMinor) }} data-testid={`dt-pair-net-${d.orderId}`}>
            {formatSignedMinor(d.netMinor)}
          </span>
        </Cell>
      </div>
      {d.closeReason && (
        <div className="pos-foot">
          <span className="muted small">
            {t('position.closeReason')}:{' '}
            {t(`position.reasons.${d.closeReason}`, { defaultValue: d.closeReason })}
          </span>
        </div>
      )}
    </div>
  );
}

/** Every offset pair taxed as a day trade. */
export function DetailsList() {
  const q = useDayTradeDetailsInfiniteQuery();
  return (
    <InfiniteList<DayTradeDetail>
      q={q}
      testId="dt-details"
      row={(d) => <DetailRow key={d.orderId} d={d} />}
    />
  );
}

function ApplicationRow({ a }: { a: DayTradeApplication }) {
  const { t } = useTranslation();
  return (
    <div className="pos-row" data-testid={`dt-app-${a.id}`}>
      <div className="pos-head">
        <span className="pos-name">{t('dayTrading.applicationNo', { id: a.id })}</span>
        <span className="pos-meta">
          <StateTag state={a.status} grantedBy={a.grantedBy} />
        </span>
      </div>
      <div className="muted small">
        {t('dayTrading.appliedAt', { at: formatDateTime(a.createdAt) })}
        {a.reviewedAt ? ` · ${t('dayTrading.reviewedAt', { at: formatDateTime(a.reviewedAt) })}` : ''}
      </div>
      {a.reason && <div className="small">{t('dayTrading.reason', { reason: a.reason })}</div>}
    </div>
  );
}

/** The member's applications, newest first. */
export function ApplicationsList() {
  const q = useDayTradeApplicationsInfiniteQuery();
  return (
    <InfiniteList<DayTradeApplication>
      q={q}
      testId="dt-applications"
      row={(a) => <ApplicationRow key={a.id} a={a} />}
    />
  );
}
