/**
 * Credit (admin/creditLoans, admin/approveCreditLoan, admin/rejectCreditLoan, admin/creditSettings,
 * admin/saveCreditSettings; docs/credit.md): the loan review queue (amount, the applicant's score
 * and limit now; Approve disburses into the member's wallet, Reject asks a reason; the server
 * refuses an operator's own application) and the settings: annual rate (bps), term (trading days)
 * and the score → limit bands, one `minScore=NT$ limit` per line. Each decision and each save
 * writes an audit entry. Testids: the ReviewQueue's with kind `credit`; `credit-rate`,
 * `credit-term`, `credit-bands`, `credit-settings-save`.
 */
import { Button, TextArea } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReqOf, ResOf } from '../../contract/api';
import type { CreditBand, CreditSettings } from '../../contract/credit';
import { formatMinor } from '../lib/format';
import { TestIdInput } from '../ui/testid-input';
import { ADMIN_PAGE_SIZE, adminApi, type QueueStatus } from './admin-api';
import { ReviewQueue } from './review-queue';
import { minorToDecimal, parseAmountToMinor } from '../../contract/money';

export type AdminCreditRow = ResOf<'admin/creditLoans'>['items'][number];

const creditAdminApi = adminApi.enhanceEndpoints({ addTagTypes: ['AdminCredit'] }).injectEndpoints({
  endpoints: (b) => ({
    adminCreditLoans: b.query<ResOf<'admin/creditLoans'>, { status: QueueStatus; page: number }>({
      query: ({ status, page }) => ({
        name: 'admin/creditLoans',
        body: { status, page, pageSize: ADMIN_PAGE_SIZE },
      }),
      providesTags: ['AdminCredit'],
    }),
    approveCreditLoan: b.mutation<ResOf<'admin/approveCreditLoan'>, ReqOf<'admin/approveCreditLoan'>>({
      query: (body) => ({ name: 'admin/approveCreditLoan', body }),
      invalidatesTags: ['AdminCredit', 'AdminAudit'],
    }),
    rejectCreditLoan: b.mutation<ResOf<'admin/rejectCreditLoan'>, ReqOf<'admin/rejectCreditLoan'>>({
      query: (body) => ({ name: 'admin/rejectCreditLoan', body }),
      invalidatesTags: ['AdminCredit', 'AdminAudit'],
    }),
    creditSettings: b.query<ResOf<'admin/creditSettings'>, void>({
      query: () => ({ name: 'admin/creditSettings', body: {} }),
      providesTags: ['AdminCredit'],
    }),
    saveCreditSettings: b.mutation<ResOf<'admin/saveCreditSettings'>, ReqOf<'admin/saveCreditSettings'>>({
      query: (body) => ({ name: 'admin/saveCreditSettings', body }),
      invalidatesTags: ['AdminCredit', 'AdminAudit'],
    }),
  }),
});

/** Bands as text, one `minScore=NT$ limit` per line. */
const bandsText = (bands: readonly CreditBand[]) =>
  bands.map((b) => `${b.minScore}=${minorToDecimal(b.limitMinor)}`).join('\n');

/** Parses the bands text; null when a line is malformed or the scores do not ascend. */
export function parseBands(text: string): CreditBand[] | null {
  const out: CreditBand[] = [];
  for (const line of text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const m = /^(\d{1,4})\s*=\s*(.+)$/.exec(line);
    const limitMinor = m ? parseAmountToMinor(m[2]!) : null;
    if (!m || limitMinor === null) return null;
    const minScore = Number(m[1]);
    if (out.length && minScore <= out[out.length - 1]!.minScore) return null;
    out.push({ minScore, limitMinor });
  }
  return out.length ? out : null;
}

function SettingsForm({ stored }: { stored: CreditSettings }) {
  const { t } = useTranslation();
  const [rate, setRate] = useState(String(stored.annualRateBps));
  const [term, setTerm] = useState(String(stored.termDays));
  const [bands, setBands] = useState(bandsText(stored.bands));
  const [save, saving] = creditAdminApi.useSaveCreditSettingsMutation();
  const parsed = {
    annualRateBps: /^\d{1,5}$/.test(rate) ? Number(rate) : null,
    termDays: /^\d{1,4}$/.test(term) && Number(term) > 0 ? Number(term) : null,
    bands: parseBands(bands),
  };
  const valid =
    parsed.annualRateBps !== null && parsed.annualRateBps <= 10_000 && parsed.termDays && parsed.bands;
  return (
    <div className="admin-card settings" data-testid="credit-settings">
      <h3>{t('admin.credit.settings')}</h3>
      <div className="setting-row">
        <div className="setting-label">
          <div>{t('admin.credit.rate')}</div>
          <div className="muted small">{t('admin.credit.rateHint')}</div>
        </div>
        <TestIdInput
          testId="credit-rate"
          inputMode="numeric"
          value={rate}
          onChange={setRate}
          className="setting-input"
        />
      </div>
      <div className="setting-row">
        <div className="setting-label">{t('admin.credit.term')}</div>
        <TestIdInput
          testId="credit-term"
          inputMode="numeric"
          value={term}
          onChange={setTerm}
          className="setting-input"
        />
      </div>
      <div className="setting-row">
        <div className="setting-label">
          <div>{t('admin.credit.bands')}</div>
          <div className="muted small">{t('admin.credit.bandsHint')}</div>
        </div>
        <TextArea value={bands} onChange={setBands} rows={5} data-testid="credit-bands" />
      </div>
      {!valid && <div className="field-error">{t('admin.credit.invalid')}</div>}
      <Button
        size="small"
        color="primary"
        disabled={!valid}
        loading={saving.isLoading}
        onClick={() => {
          if (valid)
            void save({
              annualRateBps: parsed.annualRateBps!,
              termDays: parsed.termDays!,
              bands: parsed.bands!,
            });
        }}
        data-testid="credit-settings-save"
      >
        {t('admin.save')}
      </Button>
    </div>
  );
}

/** The credit tab: the loan queue, then the settings. */
export function CreditPanel() {
  const { t } = useTranslation();
  const settings = creditAdminApi.useCreditSettingsQuery(undefined, { refetchOnMountOrArgChange: true });
  return (
    <>
      <ReviewQueue<AdminCreditRow>
        kind="credit"
        columns={[
          {
            key: 'amount',
            title: t('admin.credit.amount'),
            render: (r) => <span data-testid={`credit-amount-${r.id}`}>{formatMinor(r.principalMinor)}</span>,
          },
          { key: 'score', title: t('admin.credit.score'), render: (r) => r.score },
          { key: 'limit', title: t('admin.credit.limit'), render: (r) => formatMinor(r.limitMinor) },
          { key: 'owed', title: t('admin.credit.owed'), render: (r) => formatMinor(r.owedMinor) },
        ]}
        calls={{
          list: creditAdminApi.useAdminCreditLoansQuery,
          approve: creditAdminApi.useApproveCreditLoanMutation,
          reject: creditAdminApi.useRejectCreditLoanMutation,
        }}
        statusKey="admin.credit.status"
        rejectTitle="admin.credit.rejectTitle"
      />
      <section className="admin-section">
        {settings.data && <SettingsForm key={JSON.stringify(settings.data)} stored={settings.data} />}
      </section>
    </>
  );
}
