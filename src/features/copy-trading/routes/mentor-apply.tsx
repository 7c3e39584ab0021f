/**
 * /gdindex/mentorApply: becoming a mentor (mentor/status, mentor/apply; docs/copy-trading.md
 * "Becoming a mentor"): where the member's application stands (none, under review, approved,
 * rejected with the reason), each criterion with the member's own figure and progress (account
 * age, closed trades, max drawdown), what a mentor is and receives, and the apply button once the
 * criteria are met. Every figure is the server's.
 */
import { Button, ProgressBar } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { LabeledValue } from '../../../ui/labeled-value';
import { Page } from '../../../ui/page';
import { showToast } from '../../../ui/toast';
import { useMentorApplyMutation, useMentorStatusQuery } from '../api/copy-trading-api';
import { Guard, MentorTerms } from '../components/follow-shared';
import '../copy-trading.css';
import { formatBps } from '../../../../contract/money';

/** One criterion: the label, the member's figure against the bar, and a progress bar. */
function Criterion({
  label,
  value,
  ok,
  percent,
  testId,
}: {
  label: string;
  value: string;
  ok: boolean;
  percent: number;
  testId: string;
}) {
  return (
    <div className="gd-criterion" data-testid={testId} data-ok={ok}>
      <LabeledValue layout="line" label={label} value={`${value} ${ok ? '✓' : '✗'}`} />
      <ProgressBar
        percent={Math.max(0, Math.min(100, percent))}
        style={{ '--fill-color': ok ? 'var(--adm-color-success)' : 'var(--adm-color-warning)' }}
      />
    </div>
  );
}

/** /gdindex/mentorApply: the mentor application with its criteria and progress. */
export function MentorApplyPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data } = useMentorStatusQuery(undefined, { refetchOnMountOrArgChange: true });
  const [apply, { isLoading }] = useMentorApplyMutation();
  const c = data?.criteria;
  const m = data?.mentor ?? null;
  const state = m?.status ?? 'none';
  const canApply = !!c && (state === 'none' || state === 'rejected');
  const onApply = async () => {
    const res = await apply();
    if ('data' in res && res.data) showToast({ icon: 'success', content: t('follow.appliedReview') });
  };
  return (
    <Page title={t('follow.applyTitle')}>
      <Guard>
        {c && (
          <section className="card" data-testid="gd-apply" data-state={state}>
            <div className="card-title-row">
              <h3 className="card-title">{t('follow.applyStatus')}</h3>
              <span className={`gd-state gd-state-${state}`} data-testid="gd-apply-state">
                {t(`follow.applyState.${state}`)}
              </span>
            </div>
            {state === 'rejected' && m?.reason && (
              <div className="field-error">{t('follow.rejectedBecause', { reason: m.reason })}</div>
            )}
            <div className="preview">
              <Criterion
                label={t('follow.critAccountAge')}
                value={t('follow.critDays', { days: c.accountDays, min: c.minAccountDays })}
                ok={c.accountDays >= c.minAccountDays}
                percent={c.minAccountDays > 0 ? (c.accountDays * 100) / c.minAccountDays : 100}
                testId="gd-crit-age"
              />
              <Criterion
                label={t('follow.critTrades')}
                value={`${c.closedTrades} / ≥ ${c.minClosedTrades}`}
                ok={c.closedTrades >= c.minClosedTrades}
                percent={(c.closedTrades * 100) / c.minClosedTrades}
                testId="gd-crit-trades"
              />
              <Criterion
                label={t('follow.critDrawdown')}
                value={`${formatBps(c.drawdownBps)} / ≤ ${formatBps(c.maxDrawdownBps)}`}
                ok={c.drawdownBps <= c.maxDrawdownBps}
                percent={c.drawdownBps <= c.maxDrawdownBps ? 100 : (c.maxDrawdownBps * 100) / c.drawdownBps}
                testId="gd-crit-drawdown"
              />
            </div>
            <p className="muted small">{t('follow.applyExplain')}</p>
            {m && state === 'approved' && (
              <div className="preview">
                <MentorTerms m={m} />
              </div>
            )}
            {canApply && (
              <Button
                block
                color="primary"
                loading={isLoading}
                disabled={!c.eligible}
                onClick={onApply}
                data-testid="gd-apply-submit"
              >
                {t(c.eligible ? 'follow.applyNow' : 'follow.applyNotYet')}
              </Button>
            )}
            {state === 'approved' && m && (
              <Button block onClick={() => navigate(`/gdindex/gdList?id=${m.id}`)}>
                {t('follow.myMentorPage')}
              </Button>
            )}
          </section>
        )}
      </Guard>
    </Page>
  );
}
