/**
 * /market/marketDetail?symbol=: last price with change, day figures, five-level depth, candles,
 * watchlist toggle and the order ticket. Works without logging in (trading asks for it).
 */
import { CapsuleTabs, DotLoading } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { useSearchParams } from 'react-router-dom';
import type { CandlePeriod } from '../../../../contract/market';
import { useMarketDetailQuery } from '../../../api/api';
import { changeColor } from '../../../lib/colors';
import { CANDLE_PERIODS } from '../../../../contract/constants';
import {
  formatCompactMinor,
  formatLots,
  formatMinor,
  formatPercent,
  formatSignedMinor,
  langOf,
} from '../../../lib/format';
import { MarketStatusBar } from '../../../market/components/status-bar';
import { useDepthStream, useQuote, useQuoteStream } from '../../../market/hooks';
import { clockSeen, quotesReceived } from '../../../market/quotes-slice';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';
import { DepthBook } from '../components/depth-book';
import { KlineChart } from '../components/kline-chart';
import { OrderPanel } from '../components/order-panel';
import { WatchToggle } from '../components/watch-toggle';

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
      {quote?.phase && <div className="muted small">{t(`phase.${quote.phase}`)}</div>}
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

/** The order ticket follows the quote (market orders preview at the live ask or bid). */
function LiveOrderPanel({ symbol }: { symbol: string }) {
  const quote = useQuote(symbol);
  return <OrderPanel symbol={symbol} quote={quote} />;
}

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
          <DepthBook symbol={symbol} prevCloseMinor={detail?.quote.prevCloseMinor ?? 0} />
          <section className="card chart-card">
            <CapsuleTabs
              activeKey={period}
              onChange={(k) => setPeriod(k as CandlePeriod)}
              className="period-tabs"
            >
              {CANDLE_PERIODS.map((p) => (
                <CapsuleTabs.Tab
                  key={p}
                  title={<span data-testid={`period-${p}`}>{t(`period.${p}`)}</span>}
                />
              ))}
            </CapsuleTabs>
            <KlineChart symbol={symbol} period={period} />
          </section>
          <LiveOrderPanel symbol={symbol} />
        </>
      )}
    </Page>
  );
}
