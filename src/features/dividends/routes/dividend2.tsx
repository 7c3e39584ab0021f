/**
 * /common/dividend2: dividend stocks, highest yield first: each stock's latest cash dividend in
 * the exchange data ÷ its replayed price (the last price on the replay; the event's reference
 * price for an instrument the replay does not quote). A row opens /common/dividend3.
 */
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { DividendStock } from '../../../../contract/dividends';
import { formatMinor, langOf } from '../../../lib/format';
import { instrumentName } from '../../../live/names-en';
import { Page } from '../../../ui/page';
import { useDividendStocksInfiniteQuery } from '../api/dividends-api';
import { InfiniteList } from '../../../ui/infinite-list';
import { DividendNav, formatDividend } from '../components/parts';
import '../dividends.css';
import { formatBps } from '../../../../contract/money';

/** Basis points → "4.22%". */

function StockRow({ s }: { s: DividendStock }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  return (
    <div
      className="dividend-row"
      role="link"
      data-testid={`dividend-stock-${s.symbol}`}
      onClick={() => navigate(`/common/dividend3?symbol=${s.symbol}`)}
    >
      <div className="dividend-row-head">
        <span className="dividend-name">
          {instrumentName(s, langOf(i18n.language))} <span className="muted small">{s.symbol}</span>
        </span>
        <span className="dividend-yield" data-testid="dividend-yield">
          {formatBps(s.yieldBps)}
        </span>
      </div>
      <div className="dividend-grid">
        <div>
          <div className="muted small">{t('dividend.cash')}</div>
          <div title={s.cashDividend}>{formatDividend(s.cashDividend)}</div>
        </div>
        <div>
          <div className="muted small">{t('dividend.price')}</div>
          <div>{formatMinor(s.priceMinor)}</div>
        </div>
        <div>
          <div className="muted small">{t('dividend.exDate')}</div>
          <div>{s.exDate}</div>
        </div>
      </div>
    </div>
  );
}

export function DividendStocksPage() {
  const { t } = useTranslation();
  const q = useDividendStocksInfiniteQuery();
  return (
    <Page title={t('dividend.stocksTitle')}>
      <DividendNav current="stocks" />
      <div className="dividend-note muted small">{t('dividend.yieldNote')}</div>
      <InfiniteList q={q} testId="dividend-stocks" row={(s) => <StockRow key={s.symbol} s={s} />} />
    </Page>
  );
}
