/**
 * Rewards (admin/pointsCodeBatches, admin/createPointsCodes, admin/exportPointsCodes,
 * admin/levels, admin/saveLevel, admin/deleteLevel, admin/grantCoupon, admin/coupons;
 * docs/levels.md): issue a batch of points codes (the clear codes are shown once, with a CSV
 * download; the server keeps only their hashes), list batches with their redemptions and export
 * one (hints, who redeemed, when), edit the account-level table, and grant fee coupons.
 * Testids: `pc-kind`, `pc-amount`, `pc-days`, `pc-count`, `pc-per-member`, `pc-create`,
 * `pc-codes`, `pc-export-<id>`, table `admin-pc-batches`; `lv-<field>`, `lv-save`, table
 * `admin-levels`; `cp-account`, `cp-kind`, `cp-value`, `cp-days`, `cp-grant`, table `admin-coupons`.
 */
import { Button, Selector } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReqOf, ResOf } from '../../contract/api';
import { groupCodeInput, type Level } from '../../contract/rewards';
import { formatDateTime, formatMinor } from '../lib/format';
import { TestIdInput } from '../ui/testid-input';
import { adminApi } from './admin-api';
import { AdminTable, type Column } from './admin-ui';

const DAY_MS = 86_400_000;

const rewardsAdminApi = adminApi.enhanceEndpoints({ addTagTypes: ['AdminRewards'] }).injectEndpoints({
  endpoints: (b) => ({
    pcBatches: b.query<ResOf<'admin/pointsCodeBatches'>, void>({
      query: () => ({ name: 'admin/pointsCodeBatches', body: { page: 1, pageSize: 50 } }),
      providesTags: ['AdminRewards'],
    }),
    createCodes: b.mutation<ResOf<'admin/createPointsCodes'>, ReqOf<'admin/createPointsCodes'>>({
      query: (body) => ({ name: 'admin/createPointsCodes', body }),
      invalidatesTags: ['AdminRewards', 'AdminAudit'],
    }),
    exportCodes: b.mutation<ResOf<'admin/exportPointsCodes'>, ReqOf<'admin/exportPointsCodes'>>({
      query: (body) => ({ name: 'admin/exportPointsCodes', body }),
    }),
    levels: b.query<ResOf<'admin/levels'>, void>({
      query: () => ({ name: 'admin/levels', body: {} }),
      providesTags: ['AdminRewards'],
    }),
    saveLevel: b.mutation<ResOf<'admin/saveLevel'>, ReqOf<'admin/saveLevel'>>({
      query: (body) => ({ name: 'admin/saveLevel', body }),
      invalidatesTags: ['AdminRewards', 'AdminAudit'],
    }),
    deleteLevel: b.mutation<ResOf<'admin/deleteLevel'>, ReqOf<'admin/deleteLevel'>>({
      query: (body) => ({ name: 'admin/deleteLevel', body }),
      invalidatesTags: ['AdminRewards', 'AdminAudit'],
    }),
    grantCoupon: b.mutation<ResOf<'admin/grantCoupon'>, ReqOf<'admin/grantCoupon'>>({
      query: (body) => ({ name: 'admin/grantCoupon', body }),
      invalidatesTags: ['AdminRewards', 'AdminAudit'],
    }),
    coupons: b.query<ResOf<'admin/coupons'>, void>({
      query: () => ({ name: 'admin/coupons', body: { page: 1, pageSize: 50 } }),
      providesTags: ['AdminRewards'],
    }),
  }),
});

type Batch = ResOf<'admin/pointsCodeBatches'>['items'][number];
type AdminCoupon = ResOf<'admin/coupons'>['items'][number];

/** A whole number typed in [min, max], else null. */
const whole = (v: string, min: number, max: number): number | null => {
  const n = Number(v);
  return v.trim() !== '' && Number.isInteger(n) && n >= min && n <= max ? n : null;
};

/** Saves `rows` (arrays of cells) as a CSV file named `name` (cells quoted, quotes doubled). */
function downloadCsv(name: string, rows: Array<Array<string | number>>): void {
  const text = rows.map((r) => r.map((c) => `"${String(c).replace(/"/g, '""')}"`).join(',')).join('\r\n');
  const url = URL.createObjectURL(new Blob([`\uFEFF${text}`], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

function CodesForm() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<'points' | 'cash'>('points');
  const [amount, setAmount] = useState('100');
  const [days, setDays] = useState('30');
  const [count, setCount] = useState('10');
  const [perMember, setPerMember] = useState('1');
  const [created, setCreated] = useState<ResOf<'admin/createPointsCodes'> | null>(null);
  const [create, { isLoading }] = rewardsAdminApi.useCreateCodesMutation();
  const a = whole(amount, 1, kind === 'cash' ? 1_000_000 : 100_000_000);
  const d = whole(days, 1, 3_650);
  const n = whole(count, 1, 1_000);
  const pm = whole(perMember, 1, 1_000);
  const valid = a !== null && d !== null && n !== null && pm !== null;
  const submit = async () => {
    if (!valid) return;
    const res = await create({
      kind,
      amount: kind === 'cash' ? a * 100 : a,
      expiresAt: Date.now() + d * DAY_MS,
      count: n,
      perMemberLimit: pm,
    });
    if ('data' in res && res.data) setCreated(res.data);
  };
  const field = (testId: string, label: string, value: string, set: (v: string) => void) => (
    <label>
      <span className="muted">{label}</span>
      <TestIdInput testId={testId} value={value} onChange={set} inputMode="numeric" />
    </label>
  );
  return (
    <>
      <div className="admin-toolbar">
        <Selector
          columns={2}
          value={[kind]}
          onChange={(v) => v[0] && setKind(v[0])}
          options={[
            {
              value: 'points' as const,
              label: <span data-testid="pc-kind-points">{t('admin.rewards.kindPoints')}</span>,
            },
            {
              value: 'cash' as const,
              label: <span data-testid="pc-kind-cash">{t('admin.rewards.kindCash')}</span>,
            },
          ]}
        />
        {field('pc-amount', t('admin.rewards.amount'), amount, setAmount)}
        {field('pc-days', t('admin.rewards.expires'), days, setDays)}
        {field('pc-count', t('admin.rewards.count'), count, setCount)}
        {field('pc-per-member', t('admin.rewards.perMember'), perMember, setPerMember)}
        {!valid && <div className="field-error">{t('admin.rewards.invalid')}</div>}
        <Button
          size="small"
          color="primary"
          disabled={!valid}
          loading={isLoading}
          onClick={() => void submit()}
          data-testid="pc-create"
        >
          {t('admin.rewards.create')}
        </Button>
      </div>
      {created && (
        <div className="card" data-testid="pc-codes">
          <div className="admin-toolbar">
            <strong>{t('admin.rewards.createdCodes', { id: created.batch.id })}</strong>
            <Button
              size="mini"
              onClick={() =>
                downloadCsv(`points-codes-${created.batch.id}.csv`, [
                  ['code'],
                  ...created.codes.map((c) => [groupCodeInput(c)]),
                ])
              }
            >
              {t('admin.rewards.downloadCsv')}
            </Button>
          </div>
          {/* Printed as the member types them: XXXX-XXXX-XXXX-XXXX (accepted with or without dashes). */}
          <pre className="mono">{created.codes.map(groupCodeInput).join('\n')}</pre>
        </div>
      )}
    </>
  );
}

function Batches() {
  const { t } = useTranslation();
  const { data } = rewardsAdminApi.usePcBatchesQuery(undefined, { refetchOnMountOrArgChange: true });
  const [exportCodes] = rewardsAdminApi.useExportCodesMutation();
  const onExport = async (id: number) => {
    const res = await exportCodes({ batchId: id });
    if ('data' in res && res.data)
      downloadCsv(`points-codes-${id}-export.csv`, [
        ['hint', 'redeemedBy', 'redeemedAt'],
        ...res.data.codes.map((c) => [
          c.hint,
          c.redeemedBy ?? '',
          c.redeemedAt ? formatDateTime(c.redeemedAt) : '',
        ]),
      ]);
  };
  const columns: Column<Batch>[] = [
    { key: 'id', title: '#', render: (r) => r.id },
    {
      key: 'kind',
      title: t('admin.rewards.kind'),
      render: (r) => t(r.kind === 'cash' ? 'admin.rewards.kindCash' : 'admin.rewards.kindPoints'),
    },
    {
      key: 'amount',
      title: t('admin.rewards.amount'),
      num: true,
      render: (r) => (r.kind === 'cash' ? formatMinor(r.amount) : r.amount),
    },
    {
      key: 'redeemed',
      title: t('admin.rewards.redeemed'),
      num: true,
      render: (r) => `${r.redeemed} / ${r.count}`,
    },
    { key: 'per', title: t('admin.rewards.perMember'), num: true, render: (r) => r.perMemberLimit },
    { key: 'exp', title: t('admin.rewards.expiresAt'), render: (r) => formatDateTime(r.expiresAt) },
    {
      key: 'export',
      title: t('admin.rewards.export'),
      render: (r) => (
        <Button size="mini" onClick={() => void onExport(r.id)} data-testid={`pc-export-${r.id}`}>
          {t('admin.rewards.export')}
        </Button>
      ),
    },
  ];
  return (
    <AdminTable columns={columns} rows={data?.items ?? []} rowKey={(r) => r.id} testId="admin-pc-batches" />
  );
}

function Levels() {
  const { t } = useTranslation();
  const { data } = rewardsAdminApi.useLevelsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [save, { isLoading }] = rewardsAdminApi.useSaveLevelMutation();
  const [remove] = rewardsAdminApi.useDeleteLevelMutation();
  const [form, setForm] = useState({ level: '', name: '', assets: '', volume: '', bps: '' });
  const set = (k: keyof typeof form) => (v: string) => setForm((f) => ({ ...f, [k]: v }));
  const row: Level | null = (() => {
    const level = whole(form.level, 0, 99);
    const assets = whole(form.assets, 0, 1e13);
    const volume = whole(form.volume, 0, 1e13);
    const bps = whole(form.bps, 0, 10_000);
    const name = form.name.trim();
    if (level === null || assets === null || volume === null || bps === null || !name) return null;
    return {
      level,
      name,
      minAssetsMinor: assets * 100,
      minVolume30dMinor: volume * 100,
      feeDiscountBps: bps,
    };
  })();
  const edit = (l: Level) =>
    setForm({
      level: String(l.level),
      name: l.name,
      assets: String(l.minAssetsMinor / 100),
      volume: String(l.minVolume30dMinor / 100),
      bps: String(l.feeDiscountBps),
    });
  const columns: Column<Level>[] = [
    { key: 'level', title: t('admin.rewards.level'), render: (r) => r.level },
    { key: 'name', title: t('admin.rewards.name'), render: (r) => r.name },
    {
      key: 'assets',
      title: t('admin.rewards.minAssets'),
      num: true,
      render: (r) => formatMinor(r.minAssetsMinor),
    },
    {
      key: 'volume',
      title: t('admin.rewards.minVolume'),
      num: true,
      render: (r) => formatMinor(r.minVolume30dMinor),
    },
    { key: 'bps', title: t('admin.rewards.discountBps'), num: true, render: (r) => r.feeDiscountBps },
    {
      key: 'act',
      title: '',
      render: (r) => (
        <>
          <Button size="mini" onClick={() => edit(r)} data-testid={`lv-edit-${r.level}`}>
            ✎
          </Button>{' '}
          {r.level > 0 && (
            <Button size="mini" color="danger" fill="outline" onClick={() => void remove({ level: r.level })}>
              {t('admin.rewards.deleteLevel')}
            </Button>
          )}
        </>
      ),
    },
  ];
  return (
    <>
      <div className="admin-toolbar">
        {(
          [
            ['level', t('admin.rewards.level')],
            ['name', t('admin.rewards.name')],
            ['assets', t('admin.rewards.minAssets')],
            ['volume', t('admin.rewards.minVolume')],
            ['bps', t('admin.rewards.discountBps')],
          ] as const
        ).map(([k, label]) => (
          <label key={k}>
            <span className="muted">{label}</span>
            <TestIdInput testId={`lv-${k}`} value={form[k]} onChange={set(k)} />
          </label>
        ))}
        <Button
          size="small"
          color="primary"
          disabled={!row}
          loading={isLoading}
          onClick={() => {
            if (row) void save(row);
          }}
          data-testid="lv-save"
        >
          {t('admin.rewards.saveLevel')}
        </Button>
      </div>
      <AdminTable columns={columns} rows={data?.levels ?? []} rowKey={(r) => r.level} testId="admin-levels" />
    </>
  );
}

function Coupons() {
  const { t } = useTranslation();
  const { data } = rewardsAdminApi.useCouponsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [grant, { isLoading }] = rewardsAdminApi.useGrantCouponMutation();
  const [account, setAccount] = useState('');
  const [kind, setKind] = useState<'amount' | 'bps'>('amount');
  const [value, setValue] = useState('');
  const [days, setDays] = useState('30');
  const v = whole(value, 1, kind === 'amount' ? 1_000_000 : 10_000);
  const d = whole(days, 1, 366);
  const valid = account.trim() !== '' && v !== null && d !== null;
  const submit = () => {
    if (!valid) return;
    void grant({
      account: account.trim(),
      kind,
      ...(kind === 'amount' ? { offMinor: v * 100 } : { offBps: v }),
      validDays: d,
    });
  };
  const columns: Column<AdminCoupon>[] = [
    { key: 'id', title: '#', render: (r) => r.id },
    { key: 'account', title: t('admin.rewards.account'), render: (r) => r.account },
    {
      key: 'value',
      title: t('admin.rewards.couponKind'),
      render: (r) => (r.kind === 'amount' ? `NT$${formatMinor(r.offMinor)}` : `${r.offBps} bps`),
    },
    { key: 'state', title: t('admin.rewards.state'), render: (r) => r.state },
    { key: 'exp', title: t('admin.rewards.expiresAt'), render: (r) => formatDateTime(r.expiresAt) },
  ];
  return (
    <>
      <div className="admin-toolbar">
        <label>
          <span className="muted">{t('admin.rewards.account')}</span>
          <TestIdInput testId="cp-account" value={account} onChange={setAccount} />
        </label>
        <Selector
          columns={2}
          value={[kind]}
          onChange={(x) => x[0] && setKind(x[0])}
          options={[
            {
              value: 'amount' as const,
              label: <span data-testid="cp-kind-amount">{t('admin.rewards.couponAmount')}</span>,
            },
            {
              value: 'bps' as const,
              label: <span data-testid="cp-kind-bps">{t('admin.rewards.couponBps')}</span>,
            },
          ]}
        />
        <label>
          <span className="muted">{t('admin.rewards.offValue')}</span>
          <TestIdInput testId="cp-value" value={value} onChange={setValue} inputMode="numeric" />
        </label>
        <label>
          <span className="muted">{t('admin.rewards.validDays')}</span>
          <TestIdInput testId="cp-days" value={days} onChange={setDays} inputMode="numeric" />
        </label>
        <Button
          size="small"
          color="primary"
          disabled={!valid}
          loading={isLoading}
          onClick={submit}
          data-testid="cp-grant"
        >
          {t('admin.rewards.grantCreate')}
        </Button>
      </div>
      <AdminTable columns={columns} rows={data?.items ?? []} rowKey={(r) => r.id} testId="admin-coupons" />
    </>
  );
}

/** The rewards tab: points-code batches, the level table, fee coupons. */
export function RewardsPanel() {
  const { t } = useTranslation();
  return (
    <div data-testid="admin-rewards">
      <h3>{t('admin.rewards.batches')}</h3>
      <CodesForm />
      <Batches />
      <h3>{t('admin.rewards.levels')}</h3>
      <Levels />
      <h3>{t('admin.rewards.grant')}</h3>
      <Coupons />
    </div>
  );
}
