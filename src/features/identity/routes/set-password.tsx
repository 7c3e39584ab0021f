/**
 * /user/setPassword: set the funds password (six digits, entered twice), or change it with the
 * old one → user/setPassword. Shows from user/security whether one is set, how many wrong
 * entries are left before withdrawals lock, and the lock itself (an operator unlocks). The title
 * and button say "set" the first time and "change" afterwards (the server's toast says the same:
 * fundsPasswordSet / passwordChanged). Afterwards the member goes back where they came from (the
 * withdraw screen, the member centre, settings); a screen opened by its address goes to the
 * member centre.
 */
import { Form, NoticeBar } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { FUNDS_PASSWORD_MAX_TRIES } from '../../../../contract/constants';
import { useSecurityQuery, useSetFundsPasswordMutation } from '../../../api/api';
import { selectLoggedIn } from '../../../api/session';
import { keyRule } from '../../../ui/form-rule';
import { Loading } from '../../../ui/loading';
import { LoginPrompt } from '../../../ui/login-prompt';
import { Page, useBack } from '../../../ui/page';
import { SubmitButton } from '../../../ui/submit-button';
import { TestIdInput } from '../../../ui/testid-input';
import { confirmError, fundsPasswordError } from '../validation';

interface FundsPasswordForm {
  oldFundsPassword?: string;
  fundsPassword: string;
  confirmFundsPassword: string;
}

/** Where saving goes when there is no previous screen: the member centre (its security links). */
const AFTER_SAVE_FALLBACK = '/user/usercenter';

const digits = { type: 'password', inputMode: 'numeric', maxLength: 6, autoComplete: 'off' } as const;

export function SetPasswordPage() {
  const { t } = useTranslation();
  const loggedIn = useSelector(selectLoggedIn);
  const back = useBack(AFTER_SAVE_FALLBACK);
  const [form] = Form.useForm<FundsPasswordForm>();
  const { data: security } = useSecurityQuery(undefined, {
    skip: !loggedIn,
    refetchOnMountOrArgChange: true,
  });
  const [save, { isLoading }] = useSetFundsPasswordMutation();
  const isSet = security?.fundsPasswordSet ?? false;

  const onFinish = async (v: FundsPasswordForm) => {
    const res = await save({
      ...(isSet ? { oldFundsPassword: v.oldFundsPassword } : {}),
      fundsPassword: v.fundsPassword,
      confirmFundsPassword: v.confirmFundsPassword,
    });
    if ('data' in res) back();
  };

  if (!loggedIn)
    return (
      <Page title={t('password.fundsTitle')}>
        <LoginPrompt />
      </Page>
    );
  if (!security)
    return (
      <Page title={t('password.fundsTitle')}>
        <Loading />
      </Page>
    );

  return (
    <Page title={t(isSet ? 'password.change' : 'password.set')}>
      {security.fundsPasswordLocked ? (
        <NoticeBar
          color="error"
          wrap
          content={t('errors.fundsPasswordLocked')}
          data-testid="funds-password-locked"
        />
      ) : !isSet ? (
        <NoticeBar
          color="alert"
          wrap
          content={t('password.notSetHint')}
          data-testid="funds-password-not-set"
        />
      ) : (
        security.fundsPasswordTriesLeft < FUNDS_PASSWORD_MAX_TRIES && (
          <NoticeBar
            color="alert"
            wrap
            data-testid="funds-password-tries"
            content={t('password.triesLeft', { count: security.fundsPasswordTriesLeft })}
          />
        )
      )}
      <Form
        form={form}
        layout="vertical"
        onFinish={onFinish}
        footer={
          <SubmitButton loading={isLoading} testId="funds-password-submit">
            {t(isSet ? 'password.change' : 'password.set')}
          </SubmitButton>
        }
      >
        {isSet && (
          <Form.Item
            name="oldFundsPassword"
            label={t('password.oldFunds')}
            rules={[keyRule(t, fundsPasswordError)]}
          >
            <TestIdInput
              testId="funds-password-old"
              placeholder={t('password.fundsPlaceholder')}
              {...digits}
            />
          </Form.Item>
        )}
        <Form.Item
          name="fundsPassword"
          label={t(isSet ? 'password.newFunds' : 'password.funds')}
          rules={[keyRule(t, fundsPasswordError)]}
          description={t('password.fundsRule')}
        >
          <TestIdInput testId="funds-password-new" placeholder={t('password.fundsPlaceholder')} {...digits} />
        </Form.Item>
        <Form.Item
          name="confirmFundsPassword"
          label={t('password.confirm')}
          dependencies={['fundsPassword']}
          rules={[
            keyRule(t, (v: string | undefined) =>
              confirmError(form.getFieldValue('fundsPassword') as string | undefined, v),
            ),
          ]}
        >
          <TestIdInput
            testId="funds-password-confirm"
            placeholder={t('password.confirmPlaceholder')}
            {...digits}
          />
        </Form.Item>
      </Form>
    </Page>
  );
}
