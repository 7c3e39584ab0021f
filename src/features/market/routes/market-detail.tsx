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
import { langOf } from '../../../lib/format';
import { MarketStatusBar } from '../../../live/components/status-bar';
import { TradingPhaseTag } from '../../../live/components/trading-phase';
import {
  useClock,
  useConn,
  useDepthStream,
  useQuote,
  useQuoteReceivedAt,
  useQuoteStream,
} from '../../../live/hooks';
import { instrumentName, recordNamesEn } from '../../../live/names-en';
import { clockSeen, quotesReceived } from '../../../live/quotes-slice';
import { AGE_TICK_MS, formatAge } from '../../../ui/conn-badge';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';
import { useNow } from '../../../ui/use-now';
import { DepthBook } from '../components/depth-book';
import { PeriodSelector } from '../components/period-selector';
import { LiveOrderPanel } from '../../trading';
import { TradeTape } from '../components/trade-tape';
import { detailFigures } from '../detail-figures';
import { WatchToggle } from '../components/watch-toggle';

/**
 * The candle chart, in its own chunk with klinecharts (48 KiB): the screen draws its prices
 * without waiting for it. In the build's prerender (the static shell, import.meta.env.SSR) only
 * its place is drawn: klinecharts needs a window.
 */
const KlineChart = lazy(() => import('../components/kline-chart').then((m) => ({ default: m.KlineChart })));
const chartPlace = <div className="kline" />;

/** The news naming this instrument, in its own chunk (src/features/news). */
const NewsSection = lazy(() => import('../../news').then((m) => ({ default: m.NewsSection })));

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
  const f = detailFigures(quote, langOf(i18n.language));
  return (
    <section className="card detail-head">
      <div
        className={`detail-last ${quote ? '' : 'dash'}`}
        style={{ color: f.color }}
        data-testid="detail-last"
      >
        {f.last}
      </div>
      <div className="detail-change" style={{ color: f.color }} data-testid="detail-change">
        {f.change}
      </div>
      <div className="detail-sub">
        <TradingPhaseTag clock={clock} />
        <QuoteAge symbol={symbol} />
      </div>
      <div className="stats">
        {f.stats.map((s) => (
          <Stat
            key={s.key}
            label={t(`detail.${s.key}`)}
            value={s.value}
            color={s.color}
            testId={s.key === 'volume' || s.key === 'turnover' ? `detail-${s.key}` : undefined}
          />
        ))}
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
  const { t, i18n } = useTranslation();
  const lang = langOf(i18n.language);
  const [params] = useSearchParams();
  const raw = (params.get('symbol') ?? '').trim().toUpperCase();
  const symbol = SYMBOL_RE.test(raw) ? raw : '';
  const dispatch = useDispatch();
  const { data: detail, isLoading, isError } = useMarketDetailQuery(symbol, { skip: !symbol });
  const [period, setPeriod] = useState<CandlePeriod>('1m');

  useEffect(() => {
    if (detail) {
      dispatch(quotesReceived([detail.quote]));
      if (detail.nameEn) recordNamesEn({ [detail.quote.symbol]: detail.nameEn });
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
          <div data-testid="detail-name">
            {detail ? instrumentName({ name: detail.quote.name, nameEn: detail.nameEn }, lang) : symbol}
          </div>
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
            {import.meta.env.SSR ? (
              chartPlace
            ) : (
              <Suspense fallback={chartPlace}>
                <KlineChart symbol={symbol} period={period} />
              </Suspense>
            )}
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
