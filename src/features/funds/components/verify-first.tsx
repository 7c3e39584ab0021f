/**
 * The deposit screens' notice for a member without a verified identity: deposits need real-name
 * verification first (the server refuses them with `depositNeedsVerification`), so the screen
 * says so up front and links to /user/bandCard (verification), showing where the member stands
 * (not submitted, under review, not passed).
 */
import { NoticeBar } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { KycStatus } from '../../../../contract/constants';

/** Renders nothing for a verified member (or while the status loads). */
export function VerifyFirst({ status }: { status: KycStatus | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  if (status === undefined || status === 'verified') return null;
  return (
    <NoticeBar
      color="alert"
      wrap
      data-testid="deposit-verify-first"
      data-kyc={status}
      content={t(status === 'review' ? 'recharge.verifyUnderReview' : 'recharge.verifyFirst')}
      extra={
        status === 'review' ? null : (
          <span
            className="nav-link"
            data-testid="deposit-verify-link"
            onClick={() => navigate('/user/bandCard')}
          >
            {t('recharge.verifyLink')}
          </span>
        )
      }
    />
  );
}
