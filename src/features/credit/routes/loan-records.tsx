/**
 * /user/jkjl (product-spec §2 "Credit loans", route "loan records"): the available limit and the
 * debt, a form to apply for a loan within the available limit, and the member's loans newest
 * first with their state (pending review, rejected, in lending, completed; overdue flagged), the
 * amount, what is owed, interest, the due trading day and the loan time. A lending loan opens the
 * repay popup (in part or in full; interest is repaid first). Apply and repay carry an
 * idempotency key per submission (api/idempotency.ts).
 */
import { Button, Dialog, InfiniteScroll, NoticeBar } from 'antd-mobile';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useSearchParams } from 'react-router-dom';
import type { CreditLoan } from '../../../../contract/credit';
import {
  useCreditApplyMutation,
  useCreditLoansInfiniteQuery,
  useCreditSummaryQuery,
} from '../../../api/credit-api';
import { sendWithKey, useIdempotencyKeys } from '../../../api/idempotency';
import { selectLoggedIn } from '../../../api/session';
import { formatDateTime, formatMinor } from '../../../lib/format';
import { LoginPrompt } from '../../../ui/login-prompt';
import { Page } from '../../../ui/page';
import { showToast } from '../../../ui/toast';
import { TestIdInput } from '../../../ui/testid-input';
import { NoData } from '../../../ui/no-data';
import { PullRefresh } from '../../../ui/pull-refresh';
import { KvLine } from '../../../ui/kv-line';
import { loanAmount, LoanStatusTag } from '../components/parts';
import { RepayPopup } from '../components/repay-popup';
import '../credit.css';

function LoanRow({ l, today, onRepay }: { l: CreditLoan; today: number; onRepay: (l: CreditLoan) => void }) {
  const { t } = useTranslation();
  return (
    <div className="credit-row" data-testid={`credit-loan-${l.id}`}>
      <div className="credit-row-head">
        <span className="ipo-name">
          {t('common.currency')} {formatMinor(l.principalMinor)}
        </span>
        <LoanStatusTag status={l.status} overdue={l.overdue} />
      </div>
      <div className="credit-row-grid">
        <KvLine label={t('credit.owed')} value={formatMinor(l.owedMinor)} testId={`credit-owed-${l.id}`} />
        <KvLine label={t('credit.interest')} value={formatMinor(l.interestAccruedMinor)} />
        <KvLine label={t('credit.interestPaid')} value={formatMinor(l.interestPaidMinor)} />
        <KvLine label={t('credit.principalPaid')} value={formatMinor(l.principalRepaidMinor)} />
        {l.status === 'lending' && l.dueDay !== null && (
          <KvLine
            label={t('credit.due')}
            value={l.overdue ? t('credit.overdue') : t('credit.dueIn', { days: l.dueDay - today })}
            testId={`credit-due-${l.id}`}
          />
        )}
      </div>
      <div className="credit-row-head">
        <span className="muted small">
          {t('credit.loanTime')} {formatDateTime(l.reviewedAt ?? l.createdAt)}
        </span>
        {l.status === 'lending' && (
          <Button size="mini" color="primary" onClick={() => onRepay(l)} data-testid={`credit-repay-${l.id}`}>
            {t('credit.repay')}
          </Button>
        )}
      </div>
      {l.reason && (
        <div className="muted small">
          {t('credit.reason')}: {l.reason}
        </div>
      )}
    </div>
  );
}

function ApplyForm({ availableMinor }: { availableMinor: number }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [apply, applying] = useCreditApplyMutation();
  const keys = useIdempotencyKeys();
  const onApply = async () => {
    const amount = loanAmount(text);
    if ('errorKey' in amount) return showToast({ content: t(amount.errorKey) });
    const minor = amount.minor;
    const ok = await Dialog.confirm({
      content: t('credit.applyConfirm', { amount: formatMinor(minor) }),
      confirmText: t('credit.apply'),
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    if (await sendWithKey(keys, { amountMinor: minor }, apply)) {
      setText('');
      showToast({ content: t('credit.applied') });
    }
  };
  return (
    <div className="credit-form">
      <TestIdInput
        testId="credit-apply-amount"
        inputMode="decimal"
        value={text}
        onChange={setText}
        placeholder={t('credit.applyPlaceholder', { max: formatMinor(availableMinor) })}
        aria-label={t('credit.applyAmount')}
        clearable
      />
      <Button
        color="primary"
        loading={applying.isLoading}
        onClick={onApply}
        data-testid="credit-apply-submit"
      >
        {t('credit.apply')}
      </Button>
    </div>
  );
}

export function LoanRecordsPage() {
  const { t } = useTranslation();
  const loggedIn = useSelector(selectLoggedIn);
  const [params] = useSearchParams();
  const summary = useCreditSummaryQuery(undefined, { skip: !loggedIn, refetchOnMountOrArgChange: true });
  const q = useCreditLoansInfiniteQuery(undefined, { skip: !loggedIn, refetchOnMountOrArgChange: true });
  const [repaying, setRepaying] = useState<CreditLoan | null>(null);
  const loans = useMemo(() => (q.data?.pages ?? []).flatMap((p) => p.items), [q.data]);
  if (!loggedIn)
    return (
      <Page title={t('credit.records')}>
        <LoginPrompt />
      </Page>
    );
  const s = summary.data;
  return (
    <Page title={t('credit.records')}>
      {s?.overdue && <NoticeBar color="alert" wrap content={t('credit.overdueNotice')} />}
      <section className="card" data-testid="credit-apply-card">
        <KvLine
          label={t('credit.available')}
          value={s ? formatMinor(s.availableMinor) : ''}
          testId="jkjl-available"
        />
        <KvLine label={t('credit.debt')} value={s ? formatMinor(s.debtMinor) : ''} testId="jkjl-debt" />
        {s && (
          <>
            <div className="muted small">{t('credit.applyAmount')}</div>
            <ApplyForm key={params.get('apply') ?? ''} availableMinor={s.availableMinor} />
          </>
        )}
      </section>
      <PullRefresh onRefresh={() => Promise.all([q.refetch(), summary.refetch()])}>
        {!q.isLoading && loans.length === 0 ? (
          <NoData />
        ) : (
          <div className="list-card" data-testid="credit-loans">
            {loans.map((l) => (
              <LoanRow key={l.id} l={l} today={s?.today ?? 0} onRepay={setRepaying} />
            ))}
          </div>
        )}
        {loans.length > 0 && (
          <InfiniteScroll loadMore={async () => void (await q.fetchNextPage())} hasMore={q.hasNextPage} />
        )}
      </PullRefresh>
      <RepayPopup loan={repaying} onClose={() => setRepaying(null)} />
    </Page>
  );
}
