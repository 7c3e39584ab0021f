/**
 * `/login/logon`, step 1 of a password reset through the operator (server/modules/auth/
 * password-reset.ts): the member gives their account (their mobile number); an operator calls
 * that number and reads out a one-time code. The answer is the same whether or not the account
 * exists. Then step 2, `/login/logon2`, with the account filled in.
 */
import { Form } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { Page } from '../../../ui/page';
import { SubmitButton } from '../../../ui/submit-button';
import { useResetRequestMutation } from '../api/reset-api';
import { MobileField } from '../components/fields';

export function ResetRequestPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [request, { isLoading }] = useResetRequestMutation();

  const onFinish = async (v: { account: string }) => {
    const account = v.account.trim();
    const res = await request({ account });
    if ('data' in res) navigate(`/login/logon2?account=${account}`, { replace: true });
  };

  return (
    <Page title={t('reset.title')}>
      <section className="card">
        <p data-testid="reset-how">{t('reset.how')}</p>
      </section>
      <Form
        layout="vertical"
        onFinish={onFinish}
        footer={
          <SubmitButton loading={isLoading} testId="reset-request-submit">
            {t('reset.request')}
          </SubmitButton>
        }
      >
        <MobileField testId="reset-account" />
      </Form>
    </Page>
  );
}
