/**
 * /user/bandCard: real-name verification (product-spec §3 "Real-name record", §5 "Real-name").
 * Shows the state from user/kyc: unverified → the form; under review → the status only;
 * verified → the name and the masked ID number; not passed → the operator's reason and the form
 * to resubmit. The form takes a name, a Taiwan ID or resident certificate number (check digit
 * verified before sending) and the ID's front and back photos, each uploaded as soon as it is
 * chosen; submit → user/submitKyc.
 */
import { Button, Form, NoticeBar, Result } from 'antd-mobile';
import '../identity.css';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import type { KycRes } from '../../../../contract/identity';
import { useKycQuery, useSubmitKycMutation } from '../../../api/api';
import { selectLoggedIn } from '../../../api/session';
import { formatDateTime } from '../../../lib/format';
import { keyRule } from '../../../ui/form-rule';
import { ImagePicker, type PickerStatus } from '../../../ui/image-picker';
import { KycTag } from '../../../ui/kyc-tag';
import { LoginPrompt } from '../../../ui/login-prompt';
import { Loading } from '../../../ui/loading';
import { Page } from '../../../ui/page';
import { SubmitButton } from '../../../ui/submit-button';
import { TestIdInput } from '../../../ui/testid-input';
import { idNumberError, normaliseIdNumber, realNameError } from '../validation';

interface KycForm {
  name: string;
  idNumber: string;
  front: string | null;
  back: string | null;
}

function StatusHead({ kyc }: { kyc: KycRes }) {
  const { t } = useTranslation();
  return (
    <section className="card id-status" data-testid="kyc-status" data-status={kyc.status}>
      <span className="kv-k">{t('identity.status')}</span>
      <KycTag status={kyc.status} />
    </section>
  );
}

function KycFormView({ resubmit }: { resubmit: boolean }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<KycForm>();
  const [submit, { isLoading }] = useSubmitKycMutation();
  const [busy, setBusy] = useState<Record<string, boolean>>({});
  const [idTouched, setIdTouched] = useState(false);
  const uploading = Object.values(busy).some(Boolean);
  const track = (side: string) => (s: PickerStatus) => setBusy((b) => ({ ...b, [side]: s === 'uploading' }));

  const onFinish = async (v: KycForm) => {
    if (!v.front || !v.back) return;
    await submit({
      name: v.name.trim(),
      idNumber: normaliseIdNumber(v.idNumber),
      frontUploadId: v.front,
      backUploadId: v.back,
    });
  };

  const photoRule = keyRule<string | null | undefined>(t, (v) => (v ? null : 'errors.idImagesMissing'));

  return (
    <Form
      form={form}
      layout="vertical"
      onFinish={onFinish}
      footer={
        <SubmitButton loading={isLoading || uploading} testId="kyc-submit">
          {t(resubmit ? 'identity.resubmit' : 'identity.submit')}
        </SubmitButton>
      }
    >
      <Form.Item name="name" label={t('identity.name')} rules={[keyRule(t, realNameError)]}>
        <TestIdInput
          testId="kyc-name"
          placeholder={t('identity.namePlaceholder')}
          autoComplete="name"
          clearable
        />
      </Form.Item>
      <Form.Item
        name="idNumber"
        label={t('identity.idNumber')}
        rules={[keyRule(t, idNumberError)]}
        // Checked when the member leaves the field; from then on as they type, so a corrected
        // number clears its message at once (and a submit right after the fix is not refused).
        validateTrigger={idTouched ? 'onChange' : 'onBlur'}
        description={t('identity.idHint')}
      >
        <TestIdInput
          testId="kyc-id"
          onBlur={() => setIdTouched(true)}
          placeholder={t('identity.idPlaceholder')}
          maxLength={10}
          autoCapitalize="characters"
          autoComplete="off"
          clearable
        />
      </Form.Item>
      <Form.Item name="front" label={t('identity.front')} rules={[photoRule]}>
        <ImagePicker
          purpose="kycFront"
          label={t('identity.frontHint')}
          testId="kyc-front"
          onStatus={track('front')}
        />
      </Form.Item>
      <Form.Item name="back" label={t('identity.back')} rules={[photoRule]}>
        <ImagePicker
          purpose="kycBack"
          label={t('identity.backHint')}
          testId="kyc-back"
          onStatus={track('back')}
        />
      </Form.Item>
      <div className="hint-text">{t('identity.photoHint')}</div>
    </Form>
  );
}

function KycBody({ kyc }: { kyc: KycRes }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  switch (kyc.status) {
    case 'review':
      return (
        <Result
          status="waiting"
          title={t('kyc.review')}
          description={
            <div data-testid="kyc-review">
              <div>{t('identity.reviewHint')}</div>
              <div className="muted small">
                {t('identity.submittedAt', { at: formatDateTime(kyc.submittedAt) })}
              </div>
            </div>
          }
        />
      );
    case 'verified':
      return (
        <>
          <Result status="success" title={t('kyc.verified')} />
          <section className="card" data-testid="kyc-verified">
            <div className="kv">
              <span className="kv-k">{t('identity.name')}</span>
              <span className="kv-v" data-testid="kyc-verified-name">
                {kyc.name}
              </span>
            </div>
            <div className="kv">
              <span className="kv-k">{t('identity.idNumber')}</span>
              <span className="kv-v" data-testid="kyc-verified-id">
                {kyc.idNumberMasked}
              </span>
            </div>
            <div className="kv">
              <span className="kv-k">{t('identity.reviewedAt')}</span>
              <span className="kv-v">{formatDateTime(kyc.reviewedAt)}</span>
            </div>
          </section>
          <div className="center-pad">
            <Button block color="primary" fill="outline" onClick={() => navigate('/user/WithCard')}>
              {t('card.listTitle')}
            </Button>
          </div>
        </>
      );
    case 'rejected':
      return (
        <>
          <NoticeBar
            color="error"
            wrap
            data-testid="kyc-reason"
            content={t('identity.rejectedReason', { reason: kyc.reason ?? t('identity.noReason') })}
          />
          <KycFormView resubmit />
        </>
      );
    default:
      return <KycFormView resubmit={false} />;
  }
}

export function BandCardPage() {
  const { t } = useTranslation();
  const loggedIn = useSelector(selectLoggedIn);
  const { data, isError, refetch } = useKycQuery(undefined, {
    skip: !loggedIn,
    refetchOnMountOrArgChange: true,
  });
  return (
    <Page title={t('identity.title')}>
      {!loggedIn ? (
        <LoginPrompt />
      ) : data ? (
        <>
          <StatusHead kyc={data} />
          <KycBody kyc={data} />
        </>
      ) : isError ? (
        <div className="center-pad">
          <Button onClick={() => void refetch()}>{t('common.retry')}</Button>
        </div>
      ) : (
        <Loading />
      )}
    </Page>
  );
}
