/**
 * The member centre's credit line: credit score, credit limit and loan debt (credit/summary),
 * opening /user/credit. Loaded lazily by the member centre, so the credit calls' chunk is named
 * in the member centre's chunk and not in the first screen's router (scripts/bundle-budget.mjs).
 */
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useCreditSummaryQuery } from '../../../api/credit-api';
import { formatMinor } from '../../../lib/format';
import { LabeledValue } from '../../../ui/labeled-value';

export function CreditLine() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const credit = useCreditSummaryQuery(undefined, { refetchOnMountOrArgChange: true }).data;
  return (
    <section
      className="card uc-credit"
      role="link"
      onClick={() => navigate('/user/credit')}
      data-testid="uc-credit"
    >
      <div className="uc-grid">
        <LabeledValue
          layout="figure"
          label={t('uc.creditScore')}
          value={credit ? String(credit.score) : ''}
          testId="uc-credit-score"
        />
        <LabeledValue
          layout="figure"
          label={t('uc.creditLimit')}
          value={credit ? formatMinor(credit.limitMinor) : ''}
          testId="uc-credit-limit"
        />
        <LabeledValue
          layout="figure"
          label={t('uc.creditDebt')}
          value={credit ? formatMinor(credit.debtMinor) : ''}
          testId="uc-credit-debt"
        />
      </div>
    </section>
  );
}
