/**
 * /user/FundingDetails: deposit, withdrawal, exchange and trade tabs from user/fundRecords, with
 * infinite scroll. Every row is a posting to one of the member's ledger accounts, labelled with
 * its fund-flow type (product-spec §3 "Fund flow types") in the posting's currency. Page 1 of the
 * deposit, withdrawal and exchange tabs also lists the requests with their review states; the trade
 * tab opens with the realised P&L to date (the one definition, docs/glossary.md, as the member
 * centre's). The "statement" action downloads the CSV of any date range from user/statement.
 */
import { Button, InfiniteScroll, List, Popup, Tabs } from 'antd-mobile';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useSearchParams } from 'react-router-dom';
import '../funds.css';
import type { Deposit, Exchange, FundRecord, FundTab, Withdrawal } from '../../../../contract/funds';
import { FUND_TAB_KEYS, STATEMENT_MAX_DAYS } from '../../../../contract/constants';
import { useFundRecordsInfiniteQuery, useStatementMutation } from '../../../api/api';
import { selectLoggedIn } from '../../../api/session';
import { changeColor } from '../../../lib/colors';
import { formatDateTime, formatMinor, formatSignedMinor } from '../../../lib/format';
import { LoginPrompt } from '../../../ui/login-prompt';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';
import { showToast } from '../../../ui/toast';
import { ppmToDecimal } from '../../../../contract/money';

const STATUS_COLORS: Record<Deposit['status'], string> = {
  pending: '#fa8c16',
  approved: '#12a150',
  rejected: '#e5322d',
};

/** NT$ for TWD (the spec's label), the ISO code for the other currencies. */
function useMoneyLabel() {
  const { t } = useTranslation();
  return (currency: string) => (currency === 'TWD' ? t('common.currency') : currency);
}

function StatusTag({ status, ns }: { status: Deposit['status']; ns: 'depositStatus' | 'withdrawStatus' }) {
  const { t } = useTranslation();
  return (
    <span className="status-tag" style={{ background: STATUS_COLORS[status] }}>
      {t(`${ns}.${status}`)}
    </span>
  );
}

function DepositRequests({ items }: { items: Deposit[] }) {
  const { t } = useTranslation();
  const label = useMoneyLabel();
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
              {d.channelName ? ` · ${d.channelName}` : ''}
              {d.reason ? ` · ${d.reason}` : ''}
            </>
          }
          extra={<StatusTag status={d.status} ns="depositStatus" />}
        >
          {label(d.currency)} {formatMinor(d.amountMinor)}
        </List.Item>
      ))}
    </List>
  );
}

function WithdrawalRequests({ items }: { items: Withdrawal[] }) {
  const { t } = useTranslation();
  const label = useMoneyLabel();
  if (!items.length) return null;
  return (
    <List header={t('funds.withdrawRequests')}>
      {items.map((w) => (
        <List.Item
          key={w.id}
          data-testid="withdraw-request"
          data-status={w.status}
          description={
            <>
              {formatDateTime(w.createdAt)} · {w.cardLabel}
              {w.reason ? ` · ${w.reason}` : ''}
            </>
          }
          extra={<StatusTag status={w.status} ns="withdrawStatus" />}
        >
          {label(w.currency)} {formatMinor(w.amountMinor)}
        </List.Item>
      ))}
    </List>
  );
}

function ExchangeList({ items }: { items: Exchange[] }) {
  const { t } = useTranslation();
  if (!items.length) return null;
  return (
    <List header={t('funds.exchanges')}>
      {items.map((x) => (
        <List.Item
          key={x.id}
          data-testid="exchange-request"
          description={`${formatDateTime(x.createdAt)} · ${t('funds.rate', { rate: ppmToDecimal(x.ratePpm) })}`}
        >
          {formatMinor(x.fromMinor)} {x.from} → {formatMinor(x.toMinor)} {x.to}
        </List.Item>
      ))}
    </List>
  );
}

function RecordRow({ r }: { r: FundRecord }) {
  const { t } = useTranslation();
  const label = useMoneyLabel();
  return (
    <List.Item
      data-testid="fund-row"
      data-type={r.type}
      data-currency={r.currency}
      data-amount={r.amountMinor}
      description={
        <>
          {formatDateTime(r.createdAt)} · {t(`ledgerAccount.${r.account}`, { defaultValue: r.account })}
        </>
      }
      extra={
        <span style={{ color: changeColor(r.amountMinor, r.currency === 'USD' ? 'USD' : 'TWD') }}>
          {r.currency === 'TWD' ? '' : `${label(r.currency)} `}
          {formatSignedMinor(r.amountMinor)}
        </span>
      }
    >
      {t(`fundFlow.${r.type}`)}
    </List.Item>
  );
}

function TabContent({ tab }: { tab: FundTab }) {
  const { t } = useTranslation();
  const { data, isLoading, hasNextPage, fetchNextPage } = useFundRecordsInfiniteQuery(
    { tab },
    { refetchOnMountOrArgChange: true },
  );
  const records = useMemo(() => (data?.pages ?? []).flatMap((p) => p.items), [data]);
  const first = data?.pages[0];
  const deposits = first?.deposits ?? [];
  const withdrawals = first?.withdrawals ?? [];
  const exchanges = first?.exchanges ?? [];
  const requests = deposits.length + withdrawals.length + exchanges.length;
  const realised = first?.realisedMinor ?? null;
  if (!isLoading && records.length === 0 && requests === 0) return <NoData />;
  return (
    <>
      {tab === 'trade' && realised !== null && (
        <div className="kv fund-realised" data-testid="fund-realised">
          <span className="kv-k">{t('wallet.realisedTotal')}</span>
          <span className="kv-v" style={{ color: changeColor(realised) }}>
            {formatSignedMinor(realised)}
          </span>
        </div>
      )}
      {tab === 'deposit' && <DepositRequests items={deposits} />}
      {tab === 'withdrawal' && <WithdrawalRequests items={withdrawals} />}
      {tab === 'exchange' && <ExchangeList items={exchanges} />}
      {records.length > 0 && (
        <List header={tab === 'trade' ? undefined : t('funds.postings')}>
          {records.map((r) => (
            <RecordRow key={r.id} r={r} />
          ))}
        </List>
      )}
      <InfiniteScroll loadMore={async () => void (await fetchNextPage())} hasMore={!!hasNextPage} />
    </>
  );
}

/** The longest statement the server makes, in days (server/modules/funds/statement.ts). */

/** Today in Asia/Taipei as YYYY-MM-DD. */
export function taipeiDate(ms: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei' }).format(new Date(ms));
}

/** Saves text as a file through a Blob, an object URL and an `<a download>`. */
export function downloadText(filename: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function StatementPopup({ visible, onClose }: { visible: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const today = taipeiDate(Date.now());
  const [from, setFrom] = useState(`${today.slice(0, 8)}01`);
  const [to, setTo] = useState(today);
  const [fetchStatement, { isLoading }] = useStatementMutation();
  const tooLong = !!from && !!to && Date.parse(to) - Date.parse(from) >= STATEMENT_MAX_DAYS * 86_400_000;
  const invalid = !from || !to || from > to || tooLong;

  const onDownload = async () => {
    if (invalid) return;
    const res = await fetchStatement({ from, to });
    if (!res.data) return;
    downloadText(res.data.filename, res.data.csv);
    showToast({ icon: 'success', content: t('funds.statementDone', { count: res.data.rows }) });
    onClose();
  };

  return (
    <Popup visible={visible} onMaskClick={onClose} bodyStyle={{ borderRadius: '12px 12px 0 0' }}>
      <div className="statement" data-testid="statement-popup">
        <h3 className="card-title">{t('funds.statement')}</h3>
        <div className="muted small">{t('funds.statementHint')}</div>
        <label className="statement-row">
          <span>{t('funds.from')}</span>
          <input
            type="date"
            value={from}
            max={today}
            onChange={(e) => setFrom(e.target.value)}
            data-testid="statement-from"
          />
        </label>
        <label className="statement-row">
          <span>{t('funds.to')}</span>
          <input
            type="date"
            value={to}
            max={today}
            onChange={(e) => setTo(e.target.value)}
            data-testid="statement-to"
          />
        </label>
        {from > to && <div className="field-error">{t('funds.rangeInvalid')}</div>}
        {tooLong && (
          <div className="field-error">{t('funds.rangeTooLong', { days: STATEMENT_MAX_DAYS })}</div>
        )}
        <Button
          block
          color="primary"
          loading={isLoading}
          disabled={invalid}
          onClick={() => void onDownload()}
          data-testid="statement-download"
        >
          {t('funds.download')}
        </Button>
      </div>
    </Popup>
  );
}

export function FundingDetailsPage() {
  const { t } = useTranslation();
  const loggedIn = useSelector(selectLoggedIn);
  const [params, setParams] = useSearchParams();
  const [statement, setStatement] = useState(false);
  const tabParam = params.get('tab');
  const tab: FundTab = (FUND_TAB_KEYS as readonly string[]).includes(tabParam ?? '')
    ? (tabParam as FundTab)
    : 'deposit';
  return (
    <Page
      title={t('funds.title')}
      right={
        loggedIn ? (
          <span className="nav-link" onClick={() => setStatement(true)} data-testid="statement-open">
            {t('funds.statement')}
          </span>
        ) : undefined
      }
    >
      {!loggedIn ? (
        <LoginPrompt />
      ) : (
        <>
          <Tabs
            activeKey={tab}
            onChange={(k) => setParams({ tab: k }, { replace: true })}
            className="sticky-tabs fund-tabs"
          >
            {FUND_TAB_KEYS.map((k) => (
              <Tabs.Tab key={k} title={<span data-testid={`fund-tab-${k}`}>{t(`funds.tab.${k}`)}</span>} />
            ))}
          </Tabs>
          <TabContent key={tab} tab={tab} />
          <StatementPopup visible={statement} onClose={() => setStatement(false)} />
        </>
      )}
    </Page>
  );
}
