/**
 * The member centre's rewards card: account level and its fee discount, points, available
 * coupons, the daily sign-in button, and links to /user/accountLevel and /home/coupons. Every
 * figure comes from rewards/summary (levels from the ledger and fills, points from the journal).
 */
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { showToast } from '../../../ui/toast';
import { useRewardsSummaryQuery, useSignInMutation } from '../api/rewards-api';
import '../rewards.css';
import { formatBps } from '../../../../contract/money';

export function RewardsCard() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data } = useRewardsSummaryQuery();
  const [signIn, signing] = useSignInMutation();
  const onSignIn = async () => {
    const r = await signIn();
    if ('data' in r && r.data) showToast({ content: t('rewards.signedIn', { points: r.data.points }) });
  };
  return (
    <section className="card rw-card" data-testid="uc-rewards">
      <div className="rw-row">
        <span className="rw-level" data-testid="uc-level" onClick={() => navigate('/user/accountLevel')}>
          {t('rewards.accountLevel')}: {data?.levelName ?? ''}
          {data && data.feeDiscountBps > 0 && (
            <span className="muted small">
              {' '}
              · {t('rewards.feeOff', { percent: formatBps(data.feeDiscountBps, { trim: true }) })}
            </span>
          )}
        </span>
        <Button
          size="small"
          color="primary"
          disabled={!data || data.signedInToday}
          loading={signing.isLoading}
          onClick={onSignIn}
          data-testid="uc-sign-in"
        >
          {data?.signedInToday
            ? t('rewards.signedInToday')
            : t('rewards.signIn', { points: data?.signInPoints ?? 0 })}
        </Button>
      </div>
      <div className="rw-row">
        <span>
          {t('rewards.points')}: <b data-testid="uc-points">{data?.pointsBalance ?? ''}</b>
        </span>
        <span>
          {t('rewards.availableCoupons')}: <b data-testid="uc-coupons">{data?.availableCoupons ?? ''}</b>
        </span>
      </div>
      <div className="rw-links">
        <span className="nav-link" onClick={() => navigate('/user/accountLevel')} data-testid="uc-link-level">
          {t('rewards.levelLink')}
        </span>
        <span className="nav-link" onClick={() => navigate('/home/coupons')} data-testid="uc-link-coupons">
          {t('rewards.couponsLink')}
        </span>
      </div>
    </section>
  );
}
