/**
 * /market/marketDetail?symbol=: last price with change, day figures (and, when prices are not
 * streaming live, how old this quote is), five-level depth and the trade tape in tabs, candles,
 * watchlist toggle and the order ticket. Works without logging in (trading asks for it).
 */
import { DotLoading, Tabs } from 'antd-mobile';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { useSearchParams } from 'react-router-dom';
import type { CandlePeriod } from '../../../../contract/market';
import { useMarketDetailQuery } from '../../../api/api';
import { changeColor } from '../../../lib/colors';
import {
  formatCompactMinor,
  formatLots,
  formatMinor,
  formatPercent,
  formatSignedMinor,
  langOf,
} from '../../../lib/format';
import { MarketStatusBar } from '../../../market/components/status-bar';
import { TradingPhaseTag } from '../../../market/components/trading-phase';
import {
  useClock,
  useConn,
  useDepthStream,
  useQuote,
  useQuoteReceivedAt,
  useQuoteStream,
} from '../../../market/hooks';
import { clockSeen, quotesReceived } from '../../../market/quotes-slice';
import { AGE_TICK_MS, formatAge } from '../../../ui/conn-badge';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';
import { useNow } from '../../../ui/use-now';
import { DepthBook } from '../components/depth-book';
import { KlineChart } from '../components/kline-chart';
import { PeriodSelector } from '../components/period-selector';
import { LiveOrderPanel } from '../../../market/components/order-panel';
import { TradeTape } from '../components/trade-tape';
import { WatchToggle } from '../../../market/components/watch-toggle';

/** The news naming this instrument, in its own chunk (src/news). */
const NewsSection = lazy(() => import('../../../news/news-section'));

/** Connection states in which the quote on screen may be old: its age is shown. */
const AGED_STATES: ReadonlySet<string> = new Set(['reconnecting', 'polling', 'stale', 'backgrounded']);

const SYMBOL_RE = /^[0-9A-Z]{4,6}$/;

function Stat({
  label,
  value,
  color,
  testId,
}: {
  label: string;
  value: string;
  color?: string;
  testId?: string;
}) {
  return (
    <div className="stat">
      <div className="stat-k">{label}</div>
      <div className="stat-v" style={color ? { color } : undefined} data-testid={testId}>
        {value}
      </div>
    </div>
  );
}

/** Last price, change and the day's figures: the only part of the page that follows every tick. */
function DetailHead({ symbol }: { symbol: string }) {
  const { t, i18n } = useTranslation();
  const quote = useQuote(symbol);
  const clock = useClock();
  const lang = langOf(i18n.language);
  const change = quote ? quote.lastMinor - quote.prevCloseMinor : 0;
  const color = changeColor(change);
  const ref = quote?.prevCloseMinor ?? 0;
  const colorOf = (v: number | undefined) => (v !== undefined ? changeColor(v - ref) : undefined);
  return (
    <section className="card detail-head">
      <div className={`detail-last ${quote ? '' : 'dash'}`} style={{ color }} data-testid="detail-last">
        {quote ? formatMinor(quote.lastMinor) : ''}
      </div>
      <div className="detail-change" style={{ color }} data-testid="detail-change">
        {formatSignedMinor(change)} ({formatPercent(change, ref)})
      </div>
      <div className="detail-sub">
        <TradingPhaseTag clock={clock} />
        <QuoteAge symbol={symbol} />
      </div>
      <div className="stats">
        <Stat
          label={t('detail.open')}
          value={formatMinor(quote?.openMinor)}
          color={colorOf(quote?.openMinor)}
        />
        <Stat label={t('detail.prevClose')} value={formatMinor(quote?.prevCloseMinor)} />
        <Stat
          label={t('detail.high')}
          value={formatMinor(quote?.highMinor)}
          color={colorOf(quote?.highMinor)}
        />
        <Stat label={t('detail.low')} value={formatMinor(quote?.lowMinor)} color={colorOf(quote?.lowMinor)} />
        <Stat
          label={t('detail.volume')}
          value={formatLots(quote?.volumeShares, lang)}
          testId="detail-volume"
        />
        <Stat
          label={t('detail.turnover')}
          value={formatCompactMinor(quote?.turnoverMinor, lang)}
          testId="detail-turnover"
        />
        <Stat
          label={t('detail.limitUp')}
          value={formatMinor(quote?.limitUpMinor)}
          color={colorOf(quote?.limitUpMinor)}
        />
        <Stat
          label={t('detail.limitDown')}
          value={formatMinor(quote?.limitDownMinor)}
          color={colorOf(quote?.limitDownMinor)}
        />
      </div>
    </section>
  );
}

/**
 * "報價更新於 12 秒前" while prices are not streaming live: when this symbol's quote last reached
 * the app (worker receipt time), ticking once a second; nothing (and no timer) while live.
 */
function QuoteAge({ symbol }: { symbol: string }) {
  const { t } = useTranslation();
  const conn = useConn();
  const receivedAt = useQuoteReceivedAt(symbol);
  const shown = AGED_STATES.has(conn.state) && receivedAt !== undefined;
  const now = useNow(shown ? AGE_TICK_MS : null);
  if (!shown) return null;
  return (
    <span className={`quote-age small ${conn.state}`} data-testid="detail-quote-age">
      {t('detail.quoteAge', { age: formatAge(now - receivedAt, t) })}
    </span>
  );
}

type BookTab = 'depth' | 'trades';

/** Five-level depth and the trade tape, one at a time (the tape subscribes only while shown). */
function BookCard({ symbol, prevCloseMinor }: { symbol: string; prevCloseMinor: number }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<BookTab>('depth');
  return (
    <section className="card book-card">
      <Tabs activeKey={tab} onChange={(k) => setTab(k as BookTab)} className="book-tabs">
        <Tabs.Tab key="depth" title={<span data-testid="book-tab-depth">{t('detail.tabDepth')}</span>} />
        <Tabs.Tab key="trades" title={<span data-testid="book-tab-trades">{t('detail.tabTrades')}</span>} />
      </Tabs>
      {tab === 'depth' ? (
        <DepthBook symbol={symbol} prevCloseMinor={prevCloseMinor} />
      ) : (
        <TradeTape symbol={symbol} prevCloseMinor={prevCloseMinor} />
      )}
    </section>
  );
}

/** The stock detail screen (product-spec §2 "Stock detail"). */
export function MarketDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const raw = (params.get('symbol') ?? '').trim().toUpperCase();
  const symbol = SYMBOL_RE.test(raw) ? raw : '';
  const dispatch = useDispatch();
  const { data: detail, isLoading, isError } = useMarketDetailQuery(symbol, { skip: !symbol });
  const [period, setPeriod] = useState<CandlePeriod>('1m');

  useEffect(() => {
    if (detail) {
      dispatch(quotesReceived([detail.quote]));
      dispatch(clockSeen(detail.clock));
    }
  }, [detail, dispatch]);
  useQuoteStream(symbol ? [symbol] : []);
  useDepthStream(symbol || null);

  if (!symbol || (isError && !detail)) {
    return (
      <Page title={t('detail.title')}>
        <NoData />
      </Page>
    );
  }

  return (
    <Page
      title={
        <div className="detail-title">
          <div>{detail?.quote.name ?? symbol}</div>
          <div className="muted small">{symbol}</div>
        </div>
      }
      right={<WatchToggle symbol={symbol} />}
    >
      <MarketStatusBar replayDate={detail?.quote.replayDate} />
      {isLoading && !detail ? (
        <div className="center-fill">
          <DotLoading color="primary" />
        </div>
      ) : (
        <>
          <DetailHead symbol={symbol} />
          <BookCard symbol={symbol} prevCloseMinor={detail?.quote.prevCloseMinor ?? 0} />
          <section className="card chart-card">
            <PeriodSelector value={period} onChange={setPeriod} />
            <KlineChart symbol={symbol} period={period} />
          </section>
          <LiveOrderPanel symbol={symbol} />
          <Suspense fallback={null}>
            <NewsSection symbol={symbol} />
          </Suspense>
        </>
      )}
    </Page>
  );
}
