/**
 * /position/position: the spec's position tabs that have products so far (product-spec §2
 * "Positions tabs"): Holdings (live value and P&L, Close), Orders (pending, with time in force and
 * entry session; Cancel), Terminated (closed and cancelled: realised P&L and why it ended) and ETF
 * (holdings of ETFs), from trade/orders by tab; Bidding (block-trade applications), Auction (auction
 * bids) and Placement (placement applications) from auction/bids and primary/applications, each
 * row with its state and the amount held. The open tab is kept in `?tab=`.
 */
import { InfiniteScroll, Tabs } from 'antd-mobile';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useOrdersInfiniteQuery, useQuotesQuery } from '../../../api/api';
import { useMyApplicationsQuery, useMyBidsQuery } from '../../../api/primary-api';
import { selectLoggedIn } from '../../../api/session';
import { POSITION_TABS } from '../../../../contract/constants';
import { changeColor } from '../../../lib/colors';
import { formatMinor, formatSignedMinor, langOf } from '../../../lib/format';
import { MarketStatusBar } from '../../../live/components/status-bar';
import { useQuoteStream, useSeedQuotes } from '../../../live/hooks';
import { instrumentName } from '../../../live/names-en';
import { useLiveAccountSummary } from '../../account';
import { LoginPrompt } from '../../../ui/login-prompt';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';
import { PullRefresh } from '../../../ui/pull-refresh';
import { RiskBanner } from '../../risk';
import '../position.css';
import { CopyOrdersContext, useCopyOrderIds } from '../../../ui/copy-tag';
import { HoldingRow, PendingRow, TerminatedRow } from '../components/order-rows';

/** The primary-market tabs (not trade/orders tabs). */
const PRIMARY_TABS = ['bidding', 'auction', 'placement'] as const;
type PrimaryTab = (typeof PRIMARY_TABS)[number];
const TABS = [...POSITION_TABS, ...PRIMARY_TABS] as const;
type Tab = (typeof POSITION_TABS)[number];
type AnyTab = (typeof TABS)[number];
const isPrimary = (t: AnyTab): t is PrimaryTab => (PRIMARY_TABS as readonly string[]).includes(t);

/** Bids (auction) or block-trade / placement applications, with state and amount held. */
function PrimaryList({ tab }: { tab: PrimaryTab }) {
  const { t, i18n } = useTranslation();
  const lang = langOf(i18n.language);
  const bids = useMyBidsQuery(undefined, { skip: tab !== 'auction' }).data?.items ?? [];
  const apps = (useMyApplicationsQuery(undefined, { skip: tab === 'auction' }).data?.items ?? []).filter(
    (a) => a.kind === (tab === 'bidding' ? 'blockTrade' : 'placement'),
  );
  const rows =
    tab === 'auction'
      ? bids.map((b) => ({
          key: `b${b.id}`,
          name: instrumentName(b, lang),
          symbol: b.symbol,
          no: b.bidNo,
          state: t(`primary.bidStatus.${b.status}`),
          price: b.priceMinor,
          lots: `${b.lotsWon} / ${b.lots}`,
          held: b.depositMinor,
        }))
      : apps.map((a) => ({
          key: `a${a.id}`,
          name: instrumentName(a, lang),
          symbol: a.symbol,
          no: a.applicationNo,
          state: t(`primary.appStatus.${a.status}`),
          price: a.priceMinor,
          lots: String(a.lots),
          held: a.amountMinor,
        }));
  if (!rows.length) return <NoData />;
  return (
    <div className="list-card" data-testid={`primary-${tab}`}>
      {rows.map((r) => (
        <div key={r.key} className="primary-row">
          <div className="primary-row-head">
            <span>
              {r.name} <span className="muted small">{r.symbol}</span>
            </span>
            <span className="muted small">{r.state}</span>
          </div>
          <div className="primary-row-grid">
            <span>
              <span className="muted small">{t('primary.price')}</span> {formatMinor(r.price)}
            </span>
            <span>
              <span className="muted small">{t('primary.lots')}</span> {r.lots}
            </span>
            <span>
              <span className="muted small">{t('primary.amountHeld')}</span> {formatMinor(r.held)}
            </span>
          </div>
          <div className="muted small">{r.no}</div>
        </div>
      ))}
    </div>
  );
}
/** Tabs listing live positions (marked to the live quote). */
const LIVE_TABS: ReadonlySet<Tab> = new Set<Tab>(['holdings', 'etf']);

function Summary() {
  const { t } = useTranslation();
  const { data } = useLiveAccountSummary();
  if (!data) return null;
  return (
    <section className="card summary">
      <div>
        <div className="muted small">{t('uc.total')}</div>
        <div className="summary-v">{formatMinor(data.totalAssetsMinor)}</div>
      </div>
      <div>
        <div className="muted small">{t('uc.available')}</div>
        <div className="summary-v">{formatMinor(data.availableMinor)}</div>
      </div>
      <div>
        <div className="muted small">{t('uc.unrealised')}</div>
        <div className="summary-v" style={{ color: changeColor(data.unrealisedPnlMinor) }}>
          {formatSignedMinor(data.unrealisedPnlMinor)}
        </div>
      </div>
    </section>
  );
}

function OrderList({ tab }: { tab: Tab }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data, isLoading, hasNextPage, fetchNextPage, refetch } = useOrdersInfiniteQuery({ tab });
  const orders = useMemo(() => (data?.pages ?? []).flatMap((p) => p.items), [data]);
  const holdingSymbols = useMemo(
    () => (LIVE_TABS.has(tab) ? Array.from(new Set(orders.map((o) => o.symbol))) : []),
    [orders, tab],
  );
  const { data: snap } = useQuotesQuery(holdingSymbols, { skip: holdingSymbols.length === 0 });
  useSeedQuotes(snap?.items);
  useQuoteStream(holdingSymbols);
  const open = useCallback((id: number) => navigate(`/position/positionDetail?id=${id}`), [navigate]);
  const copies = useCopyOrderIds(orders);

  const Row = LIVE_TABS.has(tab) ? HoldingRow : tab === 'orders' ? PendingRow : TerminatedRow;
  return (
    <PullRefresh onRefresh={() => refetch()}>
      {!isLoading && orders.length === 0 ? (
        <NoData />
      ) : (
        <CopyOrdersContext.Provider value={copies}>
          <div className="list-card">
            {orders.map((o) => (
              <Row key={o.id} order={o} onOpen={open} />
            ))}
          </div>
        </CopyOrdersContext.Provider>
      )}
      {orders.length > 0 && LIVE_TABS.has(tab) && (
        <p className="muted small pos-note" data-testid="liquidation-note">
          {t('risk.liquidationNote')}
        </p>
      )}
      {orders.length > 0 && (
        <InfiniteScroll loadMore={async () => void (await fetchNextPage())} hasMore={!!hasNextPage} />
      )}
    </PullRefresh>
  );
}

export function PositionPage() {
  const { t } = useTranslation();
  const loggedIn = useSelector(selectLoggedIn);
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: AnyTab = (TABS as readonly string[]).includes(tabParam ?? '')
    ? (tabParam as AnyTab)
    : 'holdings';

  return (
    <Page title={t('position.title')} back={false} className="position-page">
      {!loggedIn ? (
        <LoginPrompt />
      ) : (
        <>
          <Summary />
          <RiskBanner />
          <MarketStatusBar />
          <Tabs
            activeKey={tab}
            onChange={(k) => setParams({ tab: k }, { replace: true })}
            className="sticky-tabs"
          >
            {TABS.map((k) => (
              <Tabs.Tab key={k} title={<span data-testid={`tab-${k}`}>{t(`position.tab.${k}`)}</span>} />
            ))}
          </Tabs>
          {isPrimary(tab) ? <PrimaryList key={tab} tab={tab} /> : <OrderList key={tab} tab={tab} />}
        </>
      )}
    </Page>
  );
}
