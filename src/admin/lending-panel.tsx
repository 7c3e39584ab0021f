/**
 * Stock lending (admin/lending, admin/saveLendingChannel, admin/saveLendingQuota): the channel's
 * open/closed switch, rate cap (bps a year; TWSE SBL caps competitive lending at 1,600) and
 * longest term, a quota per instrument (shares that may be in loan at once, with those in loan
 * now), and the latest lending orders. Testids: `lending-open`, `lending-cap`, `lending-max-days`,
 * `lending-save-channel`, `lending-quota-symbol`, `lending-quota-shares`, `lending-save-quota`,
 * `lending-quotas`, `lending-orders`.
 */
import { Button, Switch } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ResOf } from '../../contract/api';
import { formatMinor } from '../lib/format';
import { TestIdInput } from '../ui/testid-input';
import {
  useAdminLendingQuery,
  useSaveLendingChannelMutation,
  useSaveLendingQuotaMutation,
} from './admin-api';
import { AdminTable, type Column } from './admin-ui';

type Data = ResOf<'admin/lending'>;
const isInt = (s: string, min: number, max: number) =>
  /^\d+$/.test(s) && Number(s) >= min && Number(s) <= max;

function ChannelForm({ data }: { data: Data }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(data.channelOpen);
  const [cap, setCap] = useState(String(data.rateCapBps));
  const [days, setDays] = useState(String(data.maxDays));
  useEffect(() => {
    setOpen(data.channelOpen);
    setCap(String(data.rateCapBps));
    setDays(String(data.maxDays));
  }, [data.channelOpen, data.rateCapBps, data.maxDays]);
  const [save, { isLoading }] = useSaveLendingChannelMutation();
  const valid = isInt(cap, 1, 10_000) && isInt(days, 1, 3_650);
  return (
    <div className="admin-toolbar">
      <label>
        <span className="muted">{t('admin.lending.open')} </span>
        <Switch checked={open} onChange={setOpen} data-testid="lending-open" />
      </label>
      <label>
        <span className="muted">{t('admin.lending.capBps')} </span>
        <TestIdInput testId="lending-cap" value={cap} onChange={setCap} inputMode="numeric" />
      </label>
      <label>
        <span className="muted">{t('admin.lending.maxDays')} </span>
        <TestIdInput testId="lending-max-days" value={days} onChange={setDays} inputMode="numeric" />
      </label>
      {!valid && <span className="field-error">{t('admin.amountInvalid')}</span>}
      <Button
        size="small"
        color="primary"
        disabled={!valid}
        loading={isLoading}
        onClick={() => void save({ channelOpen: open, rateCapBps: Number(cap), maxDays: Number(days) })}
        data-testid="lending-save-channel"
      >
        {t('admin.save')}
      </Button>
    </div>
  );
}

function QuotaForm() {
  const { t } = useTranslation();
  const [symbol, setSymbol] = useState('');
  const [shares, setShares] = useState('');
  const [save, { isLoading }] = useSaveLendingQuotaMutation();
  const valid = /^[0-9A-Z]{1,12}$/.test(symbol.trim()) && isInt(shares, 0, 1_000_000_000);
  return (
    <div className="admin-toolbar">
      <label>
        <span className="muted">{t('admin.lending.symbol')} </span>
        <TestIdInput testId="lending-quota-symbol" value={symbol} onChange={setSymbol} />
      </label>
      <label>
        <span className="muted">{t('admin.lending.quota')} </span>
        <TestIdInput testId="lending-quota-shares" value={shares} onChange={setShares} inputMode="numeric" />
      </label>
      <Button
        size="small"
        color="primary"
        disabled={!valid}
        loading={isLoading}
        onClick={() => void save({ symbol: symbol.trim(), quotaShares: Number(shares) })}
        data-testid="lending-save-quota"
      >
        {t('admin.save')}
      </Button>
    </div>
  );
}

export function LendingPanel() {
  const { t } = useTranslation();
  const { data, isFetching, refetch } = useAdminLendingQuery(undefined, { refetchOnMountOrArgChange: true });
  const quotaColumns: Column<Data['quotas'][number]>[] = [
    { key: 'symbol', title: t('admin.lending.symbol'), render: (q) => `${q.symbol} ${q.name}` },
    {
      key: 'quota',
      title: t('admin.lending.quota'),
      num: true,
      render: (q) => q.quotaShares.toLocaleString(),
    },
    { key: 'lent', title: t('admin.lending.lent'), num: true, render: (q) => q.lentShares.toLocaleString() },
  ];
  const orderColumns: Column<Data['orders'][number]>[] = [
    { key: 'no', title: t('admin.lending.no'), render: (o) => o.lendingNo },
    { key: 'account', title: t('admin.col.account'), render: (o) => o.account },
    { key: 'symbol', title: t('admin.lending.symbol'), render: (o) => `${o.symbol} ${o.name}` },
    { key: 'shares', title: t('admin.lending.shares'), num: true, render: (o) => o.shares.toLocaleString() },
    { key: 'rate', title: t('admin.lending.rateBps'), num: true, render: (o) => String(o.rateBps) },
    {
      key: 'term',
      title: t('admin.lending.term'),
      render: (o) => t('admin.lending.termValue', { start: o.startDate, days: o.days, left: o.daysLeft }),
    },
    { key: 'rebate', title: t('admin.lending.rebate'), num: true, render: (o) => formatMinor(o.rebateMinor) },
    {
      key: 'borrowed',
      title: t('admin.lending.borrowed'),
      num: true,
      render: (o) => String(o.borrowedShares),
    },
    {
      key: 'status',
      title: t('admin.col.status'),
      render: (o) => t(`admin.lending.status.${o.status}`),
    },
  ];
  return (
    <section className="admin-section">
      <div className="admin-toolbar">
        <Button size="small" onClick={() => void refetch()} loading={isFetching}>
          {t('admin.refresh')}
        </Button>
        <span className="muted">{t('admin.lending.hint')}</span>
      </div>
      {data && <ChannelForm data={data} />}
      <QuotaForm />
      <AdminTable
        columns={quotaColumns}
        rows={data?.quotas ?? []}
        rowKey={(q) => q.symbol}
        testId="lending-quotas"
      />
      <AdminTable
        columns={orderColumns}
        rows={data?.orders ?? []}
        rowKey={(o) => o.id}
        testId="lending-orders"
      />
    </section>
  );
}
