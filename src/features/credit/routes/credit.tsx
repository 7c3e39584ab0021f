/**
 * /user/credit (product-spec §3 "Credit loan"): the credit score with every factor and its points
 * (computed by the server from the member's own record, docs/credit.md), the credit limit, the
 * available and borrowed limit, the debt (principal + interest owed), the annual rate, term and
 * score bands; links to apply and to the loan records (/user/jkjl). Reached from the home
 * shortcut "credit loan" and from the member centre.
 */
import { Button, DotLoading, NoticeBar } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import { CREDIT_SCORE_MAX } from '../../../../contract/credit';
import { useCreditSummaryQuery } from '../../../api/credit-api';
import { selectLoggedIn } from '../../../api/session';
import { formatMinor } from '../../../lib/format';
import { LabeledValue } from '../../../ui/labeled-value';
import { LoginPrompt } from '../../../ui/login-prompt';
import { Page } from '../../../ui/page';
import { PullRefresh } from '../../../ui/pull-refresh';
import { KvLine } from '../../../ui/kv-line';
import { FactorRow } from '../components/parts';
import '../credit.css';
import { formatBps } from '../../../../contract/money';

/** Basis points as a percentage with two decimals ("18.25 %"). */

export function CreditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = useSelector(selectLoggedIn);
  const { data, refetch } = useCreditSummaryQuery(undefined, {
    skip: !loggedIn,
    refetchOnMountOrArgChange: true,
  });
  if (!loggedIn)
    return (
      <Page title={t('credit.title')}>
        <LoginPrompt />
      </Page>
    );
  if (!data)
    return (
      <Page title={t('credit.title')}>
        <div className="center-fill">
          <DotLoading color="primary" />
        </div>
      </Page>
    );
  return (
    <Page title={t('credit.title')}>
      <PullRefresh onRefresh={() => refetch()}>
        {data.overdue && (
          <NoticeBar color="alert" wrap content={t('credit.overdueNotice')} data-testid="credit-overdue" />
        )}
        <section className="card credit-head">
          <div className="muted">{t('credit.score')}</div>
          <div className="credit-score" data-testid="credit-score">
            {data.score}
          </div>
          <div className="muted small">{t('credit.scoreOf', { max: CREDIT_SCORE_MAX })}</div>
          <div className="uc-grid credit-grid">
            <LabeledValue
              layout="figure"
              label={t('credit.limit')}
              value={formatMinor(data.limitMinor)}
              testId="credit-limit"
            />
            <LabeledValue
              layout="figure"
              label={t('credit.available')}
              value={formatMinor(data.availableMinor)}
              testId="credit-available"
            />
            <LabeledValue
              layout="figure"
              label={t('credit.borrowed')}
              value={formatMinor(data.borrowedMinor)}
              testId="credit-borrowed"
            />
            <LabeledValue
              layout="figure"
              label={t('credit.debt')}
              value={formatMinor(data.debtMinor)}
              testId="credit-debt"
            />
          </div>
          <div className="credit-actions">
            <Button color="primary" onClick={() => navigate('/user/jkjl?apply=1')} data-testid="credit-apply">
              {t('credit.apply')}
            </Button>
            <Button onClick={() => navigate('/user/jkjl')} data-testid="credit-records">
              {t('credit.records')}
            </Button>
          </div>
        </section>
        <section className="card">
          <h3 className="card-title">{t('credit.factors')}</h3>
          <p className="muted small">{t('credit.factorsHint')}</p>
          {data.factors.map((f) => (
            <FactorRow key={f.key} f={f} />
          ))}
        </section>
        <section className="card">
          <KvLine label={t('credit.rate')} value={formatBps(data.annualRateBps)} testId="credit-rate" />
          <KvLine label={t('credit.term')} value={t('credit.termDays', { days: data.termDays })} />
          <h3 className="card-title">{t('credit.bands')}</h3>
          {data.bands.map((b) => (
            <KvLine
              key={b.minScore}
              label={t('credit.bandRow', { score: b.minScore })}
              value={`${t('common.currency')} ${formatMinor(b.limitMinor)}`}
            />
          ))}
        </section>
      </PullRefresh>
    </Page>
  );
}
