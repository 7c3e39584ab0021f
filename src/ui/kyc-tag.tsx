/**
 * The real-name verification state as a coloured tag (product-spec §2 "Member centre": verified,
 * unverified, under review; plus not passed): green, grey, orange, red.
 */
import { useTranslation } from 'react-i18next';
import type { KycStatus } from '../../contract/constants';

export const KYC_COLORS: Record<KycStatus, string> = {
  verified: '#12a150',
  review: '#fa8c16',
  unverified: '#8c8c8c',
  rejected: '#e5322d',
};

export function KycTag({ status, testId }: { status: KycStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <span
      className="kyc-tag"
      style={{ background: KYC_COLORS[status] }}
      data-testid={testId}
      data-status={status}
    >
      {t(`kyc.${status}`)}
    </span>
  );
}
