/**
 * /common/dayTrading: the spec's four tabs (product-spec §2 "Day trading"): order submission
 * (status, eligibility and apply; the day-trade order entry once approved), transactions (today's
 * day trades), details (offset pairs with the day-trade tax) and already applied. The open tab is
 * kept in `?tab=`; `?symbol=` pre-fills the order entry (the market detail's shortcut).
 */
import { DotLoading, Tabs } from 'antd-mobile';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate, useSearchParams } from 'react-router-dom';
import '../day-trading.css';
import { selectLoggedIn } from '../../../api/session';
import { LoginPrompt } from '../../../ui/login-prompt';
import { Page } from '../../../ui/page';
import { useDayTradeStatusQuery } from '../api/day-trading-api';
import { DayTradeTicket } from '../components/day-trade-ticket';
import { ApplicationsList, DetailsList, TransactionsList } from '../components/lists';
import { StatusCard } from '../components/status-card';

/** The tabs, in the spec's order. */
export const DAY_TRADE_TABS = ['order', 'transactions', 'details', 'applied'] as const;
export type DayTradeTab = (typeof DAY_TRADE_TABS)[number];

function OrderTab({ symbol, onPlaced }: { symbol: string; onPlaced: () => void }) {
  const { data: status, isLoading } = useDayTradeStatusQuery();
  if (isLoading || !status)
    return (
      <div className="center-fill">
        <DotLoading color="primary" />
      </div>
    );
  return (
    <>
      <StatusCard status={status} />
      {status.state === 'approved' && (
        <DayTradeTicket tradeDate={status.tradeDate} initialSymbol={symbol} onPlaced={onPlaced} />
      )}
    </>
  );
}

export function DayTradingPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = useSelector(selectLoggedIn);
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: DayTradeTab = (DAY_TRADE_TABS as readonly string[]).includes(tabParam ?? '')
    ? (tabParam as DayTradeTab)
    : 'order';
  const symbol = params.get('symbol') ?? '2330';
  const show = useCallback((k: string) => setParams({ tab: k }, { replace: true }), [setParams]);
  const openOrder = useCallback((id: number) => navigate(`/position/positionDetail?id=${id}`), [navigate]);

  return (
    <Page title={t('dayTrading.title')}>
      {!loggedIn ? (
        <LoginPrompt />
      ) : (
        <>
          <Tabs activeKey={tab} onChange={show} className="sticky-tabs">
            {DAY_TRADE_TABS.map((k) => (
              <Tabs.Tab key={k} title={<span data-testid={`dt-tab-${k}`}>{t(`dayTrading.tab.${k}`)}</span>} />
            ))}
          </Tabs>
          {tab === 'order' && <OrderTab symbol={symbol} onPlaced={() => show('transactions')} />}
          {tab === 'transactions' && <TransactionsList onOpen={openOrder} />}
          {tab === 'details' && <DetailsList />}
          {tab === 'applied' && <ApplicationsList />}
        </>
      )}
    </Page>
  );
}
