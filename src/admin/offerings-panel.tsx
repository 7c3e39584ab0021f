/**
 * Offerings of the primary market (admin/offerings, admin/saveOffering): public subscriptions,
 * auctions, block trades and placements on an instrument, listed by kind, created and edited
 * (until their first day) with a form; and the review queue of block-trade and placement
 * applications (admin/primaryApplications, admin/approvePrimary, admin/rejectPrimary; four eyes,
 * audited). Days are market-clock business days, picked by their replayed dates (day-picker.tsx);
 * each refusal of the form is shown under the field it is about. Prices
 * are typed as NT$ decimals and converted exactly (contract/money.ts). The calls are injected
 * here so only this tab carries them.
 * Testids: `offering-kind-<kind>`, `offering-new`, `offering-row-<kind>-<id>`,
 * `offering-edit-<kind>-<id>`, the form's `offering-symbol`, `offering-name`, `offering-price`,
 * `offering-lots`, `offering-shares-per-application`, `offering-deposit`, `offering-start`,
 * `offering-end`, `offering-listing`, `offering-save`, `offering-cancel`; the queue's with kind
 * `primary`.
 */
import { Button, Form } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReqOf, ResOf } from '../../contract/api';
import { OFFERING_KINDS, meetsBlockTradeMinimum, type OfferingKind } from '../../contract/primary';
import { formatMinor } from '../lib/format';
import { Segmented } from '../ui/segmented';
import { TestIdInput } from '../ui/testid-input';
import { ADMIN_PAGE_SIZE, adminApi, type QueueStatus } from './admin-api';
import { AdminTable, Money, Pager, type Column } from './admin-ui';
import { DayField, formatReplayDate, type BusinessDay } from './day-picker';
import { ReviewQueue } from './review-queue';
import { bpsToDecimal, minorToDecimal, parseAmountToMinor, parsePercentToBps } from '../../contract/money';

type AdminOffering = ResOf<'admin/offerings'>['items'][number];
type PrimaryApplicationRow = ResOf<'admin/primaryApplications'>['items'][number];

const offeringsApi = adminApi
  .enhanceEndpoints({ addTagTypes: ['AdminOfferings', 'AdminPrimary'] })
  .injectEndpoints({
    endpoints: (b) => ({
      adminOfferings: b.query<ResOf<'admin/offerings'>, { kind: OfferingKind; page: number }>({
        query: ({ kind, page }) => ({
          name: 'admin/offerings',
          body: { kind, page, pageSize: ADMIN_PAGE_SIZE },
        }),
        providesTags: ['AdminOfferings'],
      }),
      saveOffering: b.mutation<ResOf<'admin/saveOffering'>, ReqOf<'admin/saveOffering'>>({
        query: (body) => ({ name: 'admin/saveOffering', body }),
        invalidatesTags: ['AdminOfferings', 'AdminAudit'],
      }),
      adminPrimaryApplications: b.query<
        ResOf<'admin/primaryApplications'>,
        { status: QueueStatus; page: number }
      >({
        query: ({ status, page }) => ({
          name: 'admin/primaryApplications',
          body: {
            ...(status === 'pending' ? { status: 'pendingReview' } : {}),
            page,
            pageSize: ADMIN_PAGE_SIZE,
          },
        }),
        providesTags: ['AdminPrimary'],
      }),
      approvePrimary: b.mutation<ResOf<'admin/approvePrimary'>, ReqOf<'admin/approvePrimary'>>({
        query: (body) => ({ name: 'admin/approvePrimary', body }),
        invalidatesTags: ['AdminPrimary', 'AdminOfferings', 'AdminAudit'],
      }),
      rejectPrimary: b.mutation<ResOf<'admin/rejectPrimary'>, ReqOf<'admin/rejectPrimary'>>({
        query: (body) => ({ name: 'admin/rejectPrimary', body }),
        invalidatesTags: ['AdminPrimary', 'AdminOfferings', 'AdminAudit'],
      }),
    }),
  });

interface OfferingFields {
  symbol: string;
  name: string;
  price: string;
  lots: string;
  sharesPerApplication: string;
  deposit: string;
  start: string;
  end: string;
  listing: string;
}

/** The form field each of admin/saveOffering's refusals is about (its message shown under it). */
const OFFERING_ERROR_FIELD: Partial<Record<string, keyof OfferingFields>> = {
  offeringSymbolUnknown: 'symbol',
  offeringStartPast: 'start',
  offeringSharesPerApplication: 'sharesPerApplication',
  subscriptionListingTooEarly: 'listing',
  auctionListingTooEarly: 'listing',
  auctionTrancheTooSmall: 'lots',
  offeringEndBeforeStart: 'end',
  offeringDeliveryTooEarly: 'listing',
  blockTradeOfferingTooSmall: 'lots',
};

const int = (s: string) => (/^-?\d+$/.test(s.trim()) ? Number(s.trim()) : NaN);

/**
 * The admin/saveOffering request from the form's fields (days and lots whole numbers, the price an
 * exact NT$ amount, the deposit a percentage with up to two decimals → bps); null when a field is
 * not a valid number.
 */
export function offeringRequest(
  kind: OfferingKind,
  id: number | undefined,
  v: OfferingFields,
): ReqOf<'admin/saveOffering'> | null {
  const priceMinor = parseAmountToMinor(v.price);
  const common = {
    ...(id !== undefined ? { id } : {}),
    symbol: v.symbol.trim(),
    name: v.name.trim(),
    priceMinor: priceMinor ?? NaN,
    startDay: int(v.start),
    listingDay: int(v.listing),
  };
  const lots = int(v.lots);
  let body: ReqOf<'admin/saveOffering'>;
  if (kind === 'subscription') {
    const per = int(v.sharesPerApplication);
    body = { kind, ...common, sharesOffered: lots * 1000, sharesPerApplication: per };
  } else if (kind === 'auction') {
    const depositBps = parsePercentToBps(v.deposit);
    body = { kind, ...common, lots, depositBps: depositBps ?? NaN };
  } else {
    body = { kind, ...common, lots, endDay: int(v.end) };
  }
  return Object.values(body).some((x) => typeof x === 'number' && !Number.isFinite(x)) ? null : body;
}

function OfferingForm({
  kind,
  offering,
  today,
  onDone,
}: {
  kind: OfferingKind;
  offering: AdminOffering | null;
  today: { day: number; date: string; days: BusinessDay[] };
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<OfferingFields>();
  const [save, { isLoading }] = offeringsApi.useSaveOfferingMutation();
  const initial: OfferingFields = offering
    ? {
        symbol: offering.symbol,
        name: offering.name,
        price: minorToDecimal(offering.priceMinor),
        lots: String(offering.lots),
        sharesPerApplication: String(offering.sharesPerApplication ?? 1000),
        deposit: bpsToDecimal(offering.depositBps ?? 0),
        start: String(offering.startDay),
        end: String(offering.endDay),
        listing: String(offering.listingDay),
      }
    : {
        symbol: '',
        name: '',
        price: '',
        lots: '',
        sharesPerApplication: '1000',
        deposit: '20.00',
        start: String(today.day + 1),
        end: String(today.day + 3),
        listing: String(today.day + 10),
      };
  const required = [{ required: true, whitespace: true, message: t('admin.required') }];
  const onFinish = async (v: OfferingFields) => {
    const body = offeringRequest(kind, offering?.id, v);
    if (!body) {
      form.setFields([{ name: 'price', errors: [t('admin.amountInvalid')] }]);
      return;
    }
    if (body.kind === 'blockTrade' && !meetsBlockTradeMinimum(body.priceMinor, body.lots)) {
      form.setFields([{ name: 'lots', errors: [t('errors.blockTradeOfferingTooSmall')] }]);
      return;
    }
    const res = await save(body);
    if (res.data) {
      onDone();
      return;
    }
    const msg = res.error && 'msg' in res.error ? String(res.error.msg) : '';
    const field = OFFERING_ERROR_FIELD[msg];
    if (field) form.setFields([{ name: field, errors: [t(`errors.${msg}`)] }]);
  };
  const day = (name: 'start' | 'end' | 'listing', label: string) => (
    <Form.Item name={name} label={label} rules={required}>
      <DayField days={today.days} today={today.day} testId={`offering-${name}`} title={label} />
    </Form.Item>
  );
  return (
    <div className="admin-card" data-testid="offering-form">
      <h3>
        {offering
          ? t('admin.offerings.edit', { name: offering.name })
          : t('admin.offerings.new', { kind: t(`admin.offerings.kind.${kind}`) })}
      </h3>
      <p className="muted">
        {t('admin.offerings.today', {
          date: formatReplayDate(today.date, i18n.language) || String(today.day),
        })}
      </p>
      <Form
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={onFinish}
        footer={
          <div className="form-actions">
            <Button onClick={onDone} data-testid="offering-cancel">
              {t('common.cancel')}
            </Button>
            <Button type="submit" color="primary" loading={isLoading} data-testid="offering-save">
              {t('admin.save')}
            </Button>
          </div>
        }
      >
        <div className="form-grid">
          <Form.Item name="symbol" label={t('admin.offerings.symbol')} rules={required}>
            <TestIdInput testId="offering-symbol" maxLength={12} />
          </Form.Item>
          <Form.Item name="name" label={t('admin.offerings.name')} rules={required}>
            <TestIdInput testId="offering-name" maxLength={60} />
          </Form.Item>
          <Form.Item
            name="price"
            label={t(kind === 'auction' ? 'admin.offerings.minPrice' : 'admin.offerings.price')}
            rules={required}
          >
            <TestIdInput testId="offering-price" inputMode="decimal" placeholder="100.00" />
          </Form.Item>
          <Form.Item
            name="lots"
            label={t('admin.offerings.lots')}
            rules={required}
            description={kind === 'blockTrade' ? t('admin.offerings.blockTradeMinHint') : undefined}
          >
            <TestIdInput testId="offering-lots" inputMode="numeric" />
          </Form.Item>
          {kind === 'subscription' && (
            <Form.Item
              name="sharesPerApplication"
              label={t('admin.offerings.sharesPerApplication')}
              rules={required}
            >
              <TestIdInput testId="offering-shares-per-application" inputMode="numeric" />
            </Form.Item>
          )}
          {kind === 'auction' && (
            <Form.Item name="deposit" label={t('admin.offerings.depositPct')} rules={required}>
              <TestIdInput testId="offering-deposit" inputMode="decimal" />
            </Form.Item>
          )}
          {day('start', t('admin.offerings.startDay'))}
          {(kind === 'blockTrade' || kind === 'placement') && day('end', t('admin.offerings.endDay'))}
          {day('listing', t('admin.offerings.listingDay'))}
        </div>
      </Form>
    </div>
  );
}

/** 2025-04-14 → 2025/04/14 (the console's date style); '' stays '--'. */
const shortDate = (iso: string) => (iso ? iso.replaceAll('-', '/') : '--');

/** The offerings tab: kind switch, list, form, and the block-trade / placement review queue. */
export function OfferingsPanel() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<OfferingKind>('auction');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<AdminOffering | null | undefined>(undefined);
  const { data, isFetching, refetch } = offeringsApi.useAdminOfferingsQuery(
    { kind, page },
    { refetchOnMountOrArgChange: true },
  );
  const columns: Column<AdminOffering>[] = [
    { key: 'id', title: t('admin.col.id'), render: (o) => o.id },
    { key: 'symbol', title: t('admin.offerings.symbol'), render: (o) => `${o.symbol} ${o.name}` },
    {
      key: 'price',
      title: t(kind === 'auction' ? 'admin.offerings.minPrice' : 'admin.offerings.price'),
      num: true,
      render: (o) => <Money currency="TWD">{formatMinor(o.priceMinor)}</Money>,
    },
    { key: 'lots', title: t('admin.offerings.lots'), num: true, render: (o) => o.lots },
    {
      key: 'days',
      title: t('admin.offerings.days'),
      render: (o) => `${shortDate(o.startDate)} – ${shortDate(o.endDate)} · ${shortDate(o.listingDate)}`,
    },
    {
      key: 'stage',
      title: t('admin.offerings.stage'),
      render: (o) => t(`admin.offerings.stageName.${o.stage}`),
    },
    { key: 'entries', title: t('admin.offerings.entries'), num: true, render: (o) => o.entries },
    {
      key: 'listingPrice',
      title: t('admin.offerings.listingPrice'),
      num: true,
      render: (o) => (o.listingPriceMinor === null ? '--' : formatMinor(o.listingPriceMinor)),
    },
    {
      key: 'edit',
      title: '',
      render: (o) =>
        o.editable ? (
          <Button size="mini" onClick={() => setEditing(o)} data-testid={`offering-edit-${o.kind}-${o.id}`}>
            {t('common.edit')}
          </Button>
        ) : null,
    },
  ];
  return (
    <section className="admin-section" data-testid="offerings-panel">
      <div className="admin-toolbar">
        <Segmented<OfferingKind>
          value={kind}
          onChange={(k) => {
            setKind(k);
            setPage(1);
            setEditing(undefined);
          }}
          options={OFFERING_KINDS.map((k) => ({
            value: k,
            label: t(`admin.offerings.kind.${k}`),
            testId: `offering-kind-${k}`,
          }))}
        />
        <Button size="small" onClick={() => void refetch()} loading={isFetching}>
          {t('admin.refresh')}
        </Button>
        <Button size="small" color="primary" onClick={() => setEditing(null)} data-testid="offering-new">
          {t('admin.offerings.create')}
        </Button>
      </div>
      {editing !== undefined && data && (
        <OfferingForm
          key={`${kind}-${editing?.id ?? 'new'}`}
          kind={kind}
          offering={editing}
          today={{ day: data.today, date: data.todayDate, days: data.days }}
          onDone={() => setEditing(undefined)}
        />
      )}
      <AdminTable
        columns={columns}
        rows={data?.items ?? []}
        rowKey={(o) => `${o.kind}-${o.id}`}
        rowTestId={(o) => `offering-row-${o.kind}-${o.id}`}
        testId="admin-offerings"
      />
      <Pager page={page} total={data?.total ?? 0} pageSize={ADMIN_PAGE_SIZE} onChange={setPage} />
      <h3>{t('admin.offerings.applications')}</h3>
      <ReviewQueue<PrimaryApplicationRow & { status: string }>
        kind="primary"
        reviewable="pendingReview"
        columns={[
          {
            key: 'offering',
            title: t('admin.offerings.symbol'),
            render: (r) => `${t(`admin.offerings.kind.${r.kind}`)} · ${r.symbol} ${r.name}`,
          },
          {
            key: 'price',
            title: t('admin.offerings.price'),
            num: true,
            render: (r) => formatMinor(r.priceMinor),
          },
          { key: 'lots', title: t('admin.offerings.lots'), num: true, render: (r) => r.lots },
          {
            key: 'amount',
            title: t('admin.offerings.amount'),
            num: true,
            render: (r) => <Money currency="TWD">{formatMinor(r.amountMinor)}</Money>,
          },
        ]}
        calls={{
          list: offeringsApi.useAdminPrimaryApplicationsQuery,
          approve: offeringsApi.useApprovePrimaryMutation,
          reject: offeringsApi.useRejectPrimaryMutation,
        }}
        statusKey="admin.offerings.appStatus"
        rejectTitle="admin.offerings.rejectTitle"
      />
    </section>
  );
}
