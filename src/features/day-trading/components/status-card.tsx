/**
 * The order-submission tab's head: where the member stands (not applied, under review, approved
 * by the rule or by an operator, rejected with the reason), the eligibility rule with the
 * member's own figures (account age, trades in the last year; TW-MARKET-RULES "Day trading"), the
 * day-trade tax rate and whether open day trades are closed at the closing call, and the apply
 * button while no application is open.
 */
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { DayTradeStatus } from '../../../../contract/day-trading';
import { LabeledValue } from '../../../ui/labeled-value';
import { showToast } from '../../../ui/toast';
import { useApplyDayTradeMutation } from '../api/day-trading-api';
import { StateTag } from './state-tag';
import { formatPpmPercent } from '../../../../contract/money';

export function StatusCard({ status }: { status: DayTradeStatus }) {
  const { t } = useTranslation();
  const [apply, { isLoading }] = useApplyDayTradeMutation();
  const e = status.eligibility;
  const canApply = status.state === 'none' || status.state === 'rejected';
  const onApply = async () => {
    const res = await apply();
    if ('data' in res && res.data) {
      showToast({
        icon: 'success',
        content: t(
          res.data.status === 'approved' ? 'dayTrading.appliedApproved' : 'dayTrading.appliedPending',
        ),
      });
    }
  };
  const check = (ok: boolean) => (ok ? '✓' : '✗');
  return (
    <section className="card dt-status" data-testid="dt-status" data-state={status.state}>
      <div className="card-title-row">
        <h3 className="card-title">{t('dayTrading.statusTitle')}</h3>
        <StateTag state={status.state} grantedBy={status.application?.grantedBy ?? null} />
      </div>
      {status.state === 'rejected' && status.application?.reason && (
        <div className="field-error" data-testid="dt-reject-reason">
          {t('dayTrading.rejectedBecause', { reason: status.application.reason })}
        </div>
      )}
      <div className="preview">
        <LabeledValue
          layout="line"
          label={t('dayTrading.accountAge')}
          value={`${t('dayTrading.days', { count: e.accountDays })} / ≥ ${e.minAccountDays} ${check(e.accountDays >= e.minAccountDays)}`}
          testId="dt-account-days"
        />
        <LabeledValue
          layout="line"
          label={t('dayTrading.tradesLastYear')}
          value={`${e.tradesLastYear} / ≥ ${e.minTrades} ${check(e.tradesLastYear >= e.minTrades)}`}
          testId="dt-trades"
        />
        <LabeledValue
          layout="line"
          label={t('dayTrading.taxRate')}
          value={
            status.taxUntil
              ? t('dayTrading.taxUntil', { rate: formatPpmPercent(status.taxPpm), date: status.taxUntil })
              : formatPpmPercent(status.taxPpm)
          }
          testId="dt-tax-rate"
        />
        <LabeledValue
          layout="line"
          label={t('dayTrading.autoClose')}
          value={t(status.autoClose ? 'dayTrading.autoCloseOn' : 'dayTrading.autoCloseOff')}
        />
      </div>
      <p className="muted small">
        {t('dayTrading.ruleNote', { days: e.minAccountDays, trades: e.minTrades })}
      </p>
      {canApply && (
        <Button block color="primary" loading={isLoading} onClick={onApply} data-testid="dt-apply">
          {t(e.eligible ? 'dayTrading.applyNow' : 'dayTrading.applyForReview')}
        </Button>
      )}
    </section>
  );
}
