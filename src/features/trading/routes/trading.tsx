/**
 * `/trading/trading` (product-spec §2 "Other", the Trade screen): a quick ticket for one
 * instrument (`?symbol=`, else 2330; "change" opens the search) under its live quote, and the
 * member's orders waiting to fill (trade/orders, tab `orders`), each opening its detail.
 */
import { Button, List } from 'antd-mobile';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { symbolSchema } from '../../../../contract/market';
import { useOrdersInfiniteQuery } from '../../../api/api';
import { selectLoggedIn } from '../../../api/session';
import { formatMinorOrDash, langOf } from '../../../lib/format';
import { instrumentName } from '../../../live/names-en';
import { QuickTicket } from '../components/quick-ticket';
import { MarketStatusBar } from '../../../live/components/status-bar';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';

/** The instrument a bare Trade screen opens on (TSMC, the market's largest). */
const DEFAULT_SYMBOL = '2330';

/** The member's first page of orders waiting to fill. */
function PendingOrders() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { data, isLoading } = useOrdersInfiniteQuery({ tab: 'orders' });
  const orders = (data?.pages ?? []).flatMap((p) => p.items);
  return (
    <List
      header={
        <div className="card-title-row">
          <span>{t('trade.pending')}</span>
          <Button size="mini" fill="none" onClick={() => navigate('/position/position?tab=orders')}>
            {t('trade.allOrders')}
          </Button>
        </div>
      }
      data-testid="trade-pending"
    >
      {!isLoading && orders.length === 0 ? (
        <NoData />
      ) : (
        orders.map((o) => (
          <List.Item
            key={o.id}
            onClick={() => navigate(`/position/positionDetail?id=${o.id}`)}
            description={`${t(`side.${o.side}`)} · ${t('trade.lots', { count: o.lots })} · ${o.leverage}×`}
            extra={formatMinorOrDash(o.limitPriceMinor)}
            data-testid="trade-pending-row"
          >
            {instrumentName(o, langOf(i18n.language))} <span className="muted small">{o.symbol}</span>
          </List.Item>
        ))
      )}
    </List>
  );
}

export function TradingPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = useSelector(selectLoggedIn);
  const parsed = symbolSchema.safeParse((useSearchParams()[0].get('symbol') ?? '').trim().toUpperCase());
  const symbol = parsed.success ? parsed.data : DEFAULT_SYMBOL;
  const open = useCallback((s: string) => navigate(`/market/marketDetail?symbol=${s}`), [navigate]);
  return (
    <Page
      title={t('trade.title')}
      right={
        <Button
          size="mini"
          fill="none"
          onClick={() => navigate('/home/searchIndex')}
          data-testid="trade-change"
        >
          {t('trade.change')}
        </Button>
      }
    >
      <MarketStatusBar />
      <QuickTicket symbol={symbol} onOpen={open} />
      {loggedIn && <PendingOrders />}
    </Page>
  );
}
