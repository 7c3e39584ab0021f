/**
 * Pieces the credit screens share: the loan-state tag, a label–value line, a factor row of the
 * score breakdown, and the amount parser of the apply and repay inputs.
 */
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { CreditFactor, CreditLoanStatus } from '../../../../contract/credit';
import { parseAmountInput } from '../../../../contract/money';
import { AMOUNT_ISSUE_KEYS } from '../../../lib/amount-messages';
import { formatMinor } from '../../../lib/format';

const STATUS_COLORS: Record<CreditLoanStatus, string> = {
  pending: '#1677ff',
  rejected: '#8c8c8c',
  lending: '#fa8c16',
  completed: '#12a150',
};

/** A coloured tag for a loan's state (contract/credit.ts CREDIT_LOAN_STATUSES); overdue in red. */
export function LoanStatusTag({ status, overdue }: { status: CreditLoanStatus; overdue: boolean }) {
  const { t } = useTranslation();
  return (
    <span className="credit-tags">
      <span
        className="status-tag"
        style={{ background: STATUS_COLORS[status] }}
        data-testid="credit-loan-status"
        data-status={status}
      >
        {t(`credit.status.${status}`)}
      </span>
      {overdue && (
        <span className="status-tag" style={{ background: '#e5322d' }} data-testid="credit-loan-overdue">
          {t('credit.overdue')}
        </span>
      )}
    </span>
  );
}

/** What a factor counted, in words (days, NT$, a count, verified or not). */
function factorValue(f: CreditFactor, t: TFunction): string {
  switch (f.key) {
    case 'base':
      return t('credit.factorValue.base');
    case 'kycVerified':
      return t(f.value ? 'credit.factorValue.kycVerified_yes' : 'credit.factorValue.kycVerified_no');
    case 'accountAge':
      return t('credit.factorValue.accountAge', { value: f.value });
    case 'deposits':
      return t('credit.factorValue.deposits', { value: formatMinor(f.value) });
    default:
      return t('credit.factorValue.count', { value: f.value });
  }
}

/** A factor of the score: its name, what was counted, its points (signed) and its cap. */
export function FactorRow({ f }: { f: CreditFactor }) {
  const { t } = useTranslation();
  const cls = f.points > 0 ? 'credit-plus' : f.points < 0 ? 'credit-minus' : 'muted';
  return (
    <div className="credit-factor" data-testid={`credit-factor-${f.key}`}>
      <div>
        <div>{t(`credit.factor.${f.key}`)}</div>
        <div className="muted small">
          {factorValue(f, t)} · {t('credit.cap', { cap: f.capPoints })}
        </div>
      </div>
      <div className={`credit-points ${cls}`} data-testid={`credit-points-${f.key}`}>
        {f.points > 0 ? `+${f.points}` : String(f.points)}
      </div>
    </div>
  );
}

/**
 * A typed NT$ amount → minor units, or the translation key of the one rule it breaks
 * (contract/money.ts parseAmountInput): empty is `errors.loanAmountRequired` (product-spec §5),
 * zero or negative `errors.amountNotPositive`, more than 2 decimals `errors.amountTooManyDecimals`.
 */
export function loanAmount(text: string): { minor: number } | { errorKey: string } {
  const parsed = parseAmountInput(text);
  if ('minor' in parsed) return parsed;
  return {
    errorKey: parsed.issue === 'required' ? 'errors.loanAmountRequired' : AMOUNT_ISSUE_KEYS[parsed.issue],
  };
}
