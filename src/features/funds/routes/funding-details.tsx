/**
 * /user/FundingDetails: deposit, withdrawal and trade tabs from user/fundRecords (postings to the
 * member's ledger accounts, labelled with the fund-flow type), with infinite scroll. The deposit
 * tab also lists deposit requests with their review status.
 */
import { InfiniteScroll, List, Tabs } from 'antd-mobile';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useSearchParams } from 'react-router-dom';
import type { Deposit, FundRecord, FundTab } from '../../../../contract/funds';
import { useFundRecordsInfiniteQuery } from '../../../api/api';
import { selectLoggedIn } from '../../../api/session';
import { changeColor } from '../../../lib/colors';
import { FUND_TAB_KEYS } from '../../../../contract/constants';
import { formatDateTime, formatSignedMinor, formatMinor } from '../../../lib/format';
import { LoginPrompt } from '../../../ui/login-prompt';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';

const STATUS_COLORS: Record<Deposit['status'], string> = {
  pending: '#fa8c16',
  approved: '#12a150',
  rejected: '#e5322d',
};

function DepositRequests({ items }: { items: Deposit[] }) {
  const { t } = useTranslation();
  if (!items.length) return null;
  return (
    <List header={t('funds.requests')}>
      {items.map((d) => (
        <List.Item
          key={d.id}
          data-testid="deposit-request"
          data-status={d.status}
          description={
            <>
              {formatDateTime(d.createdAt)}
              {d.reason ? ` · ${d.reason}` : ''}
            </>
          }
          extra={
            <span className="status-tag" style={{ background: STATUS_COLORS[d.status] }}>
              {t(`depositStatus.${d.status}`)}
            </span>
          }
        >
          {t('common.currency')} {formatMinor(d.amountMinor)}
        </List.Item>
      ))}
    </List>
  );
}

function RecordRow({ r }: { r: FundRecord }) {
  const { t } = useTranslation();
  return (
    <List.Item
      data-testid="fund-row"
      data-type={r.type}
      description={
        <>
          {formatDateTime(r.createdAt)} · {t(`ledgerAccount.${r.account}`, { defaultValue: r.account })}
        </>
      }
      extra={<span style={{ color: changeColor(r.amountMinor) }}>{formatSignedMinor(r.amountMinor)}</span>}
    >
      {t(`fundFlow.${r.type}`)}
    </List.Item>
  );
}

function TabContent({ tab }: { tab: FundTab }) {
  const { t } = useTranslation();
  const { data, isLoading, hasNextPage, fetchNextPage } = useFundRecordsInfiniteQuery({ tab });
  const records = useMemo(() => (data?.pages ?? []).flatMap((p) => p.items), [data]);
  const deposits = data?.pages[0]?.deposits ?? [];
  if (!isLoading && records.length === 0 && deposits.length === 0) return <NoData />;
  return (
    <>
      {tab === 'deposit' && <DepositRequests items={deposits} />}
      {records.length > 0 && (
        <List header={tab === 'deposit' ? t('funds.postings') : undefined}>
          {records.map((r) => (
            <RecordRow key={r.id} r={r} />
          ))}
        </List>
      )}
      <InfiniteScroll loadMore={async () => void (await fetchNextPage())} hasMore={!!hasNextPage} />
    </>
  );
}

export function FundingDetailsPage() {
  const { t } = useTranslation();
  const loggedIn = useSelector(selectLoggedIn);
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: FundTab = (FUND_TAB_KEYS as readonly string[]).includes(tabParam ?? '')
    ? (tabParam as FundTab)
    : 'deposit';
  return (
    <Page title={t('funds.title')}>
      {!loggedIn ? (
        <LoginPrompt />
      ) : (
        <>
          <Tabs
            activeKey={tab}
            onChange={(k) => setParams({ tab: k }, { replace: true })}
            className="sticky-tabs"
          >
            {FUND_TAB_KEYS.map((k) => (
              <Tabs.Tab key={k} title={<span data-testid={`fund-tab-${k}`}>{t(`funds.tab.${k}`)}</span>} />
            ))}
          </Tabs>
          <TabContent key={tab} tab={tab} />
        </>
      )}
    </Page>
  );
}
