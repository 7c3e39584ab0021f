/**
 * Real-name verifications to review (admin/kyc): name, full ID number (marked when another
 * member's record of it is verified or in review: reject it), both ID photos.
 */
import { Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useAdminKycQuery, useApproveKycMutation, useRejectKycMutation, type AdminKycRow } from './admin-api';
import { UploadThumb } from './admin-ui';
import { ReviewQueue } from './review-queue';

/** The KYC queue: a ReviewQueue with the name, the full ID number and both ID photos. */
export function KycQueue() {
  const { t } = useTranslation();
  return (
    <ReviewQueue<AdminKycRow>
      kind="kyc"
      columns={[
        { key: 'name', title: t('admin.col.name'), render: (r) => r.name },
        {
          key: 'idNumber',
          title: t('admin.col.idNumber'),
          render: (r) => (
            <>
              <span className="mono" data-testid={`kyc-id-number-${r.id}`}>
                {r.idNumber}
              </span>
              {r.duplicateId && (
                <Tag color="danger" className="kyc-duplicate" data-testid={`kyc-duplicate-${r.id}`}>
                  {t('admin.kycDuplicateId')}
                </Tag>
              )}
            </>
          ),
        },
        {
          key: 'photos',
          title: t('admin.col.photos'),
          render: (r) => (
            <div className="thumbs">
              <UploadThumb id={r.frontUploadId} label={t('admin.idFront')} testId={`kyc-front-${r.id}`} />
              <UploadThumb id={r.backUploadId} label={t('admin.idBack')} testId={`kyc-back-${r.id}`} />
            </div>
          ),
        },
      ]}
      calls={{
        list: useAdminKycQuery,
        approve: useApproveKycMutation,
        reject: useRejectKycMutation,
        cache: 'adminKyc',
      }}
      statusKey="kyc"
      reviewable="review"
      rejectTitle="admin.rejectKycTitle"
    />
  );
}
