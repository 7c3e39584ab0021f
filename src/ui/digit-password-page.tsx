/**
 * The screen that sets or changes a six-digit password (the funds password: /user/setPassword;
 * the block-trade password: /user/blockTradePassword). The member enters the new one twice, and
 * the old one when one is set. Before the form: the lock after too many wrong entries (an operator
 * unlocks), "none set yet", or how many wrong entries are left. The title and button say "set"
 * the first time and "change" afterwards. After a save the member goes back where they came from
 * (useBack with the screen's fallback).
 *
 * Test ids, after the screen's prefix: `<p>-locked`, `<p>-not-set`, `<p>-tries`, `<p>-old`,
 * `<p>-new`, `<p>-confirm`, `<p>-submit`.
 */
import { Form, NoticeBar } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { FUNDS_PASSWORD_MAX_TRIES } from '../../contract/constants';
import { selectLoggedIn } from '../api/session';
import { keyRule } from './form-rule';
import { Loading } from './loading';
import { LoginPrompt } from './login-prompt';
import { Page, useBack } from './page';
import { SubmitButton } from './submit-button';
import { TestIdInput } from './testid-input';
import { confirmError, sixDigitError } from '../lib/password-checks';

/** Whether a password is set, whether it is locked, and the wrong entries left before it locks. */
export interface DigitPasswordState {
  set: boolean;
  locked: boolean;
  triesLeft: number;
}

/** What the member typed: the old password only when one is set. */
export interface DigitPasswordValues {
  old?: string;
  password: string;
  confirm: string;
}

/** The screen's translation keys. */
export interface DigitPasswordText {
  /** Title while loading or logged out. */
  title: string;
  /** Title and button the first time, and afterwards. */
  set: string;
  change: string;
  /** Field labels: the old one, the new one the first time, the new one afterwards. */
  old: string;
  first: string;
  new: string;
  placeholder: string;
  /** Validation: empty, not six digits, and (new passwords only, when given) trivial. */
  required: string;
  rule: string;
  trivial?: string;
  notSetHint: string;
  locked: string;
  /** Pluralised with `count`. */
  triesLeft: string;
}

const digits = { type: 'password', inputMode: 'numeric', maxLength: 6, autoComplete: 'off' } as const;

/**
 * `state` is undefined while it loads; `save` resolves true when the server took the password.
 */
export function DigitPasswordPage({
  state,
  saving,
  save,
  text,
  testId,
  fallback,
}: {
  state: DigitPasswordState | undefined;
  saving: boolean;
  save: (v: DigitPasswordValues) => Promise<boolean>;
  text: DigitPasswordText;
  testId: string;
  /** Where saving goes when there is no previous screen. */
  fallback: string;
}) {
  const { t } = useTranslation();
  const loggedIn = useSelector(selectLoggedIn);
  const back = useBack(fallback);
  const [form] = Form.useForm<DigitPasswordValues>();
  const check = sixDigitError(text.required, text.rule);
  const checkNew = sixDigitError(text.required, text.rule, text.trivial);

  if (!loggedIn || !state)
    return <Page title={t(text.title)}>{loggedIn ? <Loading /> : <LoginPrompt />}</Page>;

  const onFinish = async (v: DigitPasswordValues) => {
    if (await save({ ...(state.set ? { old: v.old } : {}), password: v.password, confirm: v.confirm }))
      back();
  };
  const title = t(state.set ? text.change : text.set);
  return (
    <Page title={title}>
      {state.locked ? (
        <NoticeBar color="error" wrap content={t(text.locked)} data-testid={`${testId}-locked`} />
      ) : !state.set ? (
        <NoticeBar color="alert" wrap content={t(text.notSetHint)} data-testid={`${testId}-not-set`} />
      ) : (
        state.triesLeft < FUNDS_PASSWORD_MAX_TRIES && (
          <NoticeBar
            color="alert"
            wrap
            data-testid={`${testId}-tries`}
            content={t(text.triesLeft, { count: state.triesLeft })}
          />
        )
      )}
      <Form
        form={form}
        layout="vertical"
        onFinish={onFinish}
        footer={
          <SubmitButton loading={saving} testId={`${testId}-submit`}>
            {title}
          </SubmitButton>
        }
      >
        {state.set && (
          <Form.Item name="old" label={t(text.old)} rules={[keyRule(t, check)]}>
            <TestIdInput testId={`${testId}-old`} placeholder={t(text.placeholder)} {...digits} />
          </Form.Item>
        )}
        <Form.Item
          name="password"
          label={t(state.set ? text.new : text.first)}
          rules={[keyRule(t, checkNew)]}
          description={t(text.rule)}
        >
          <TestIdInput testId={`${testId}-new`} placeholder={t(text.placeholder)} {...digits} />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('password.confirm')}
          dependencies={['password']}
          rules={[
            keyRule(t, (v: string | undefined) =>
              confirmError(form.getFieldValue('password') as string | undefined, v),
            ),
          ]}
        >
          <TestIdInput
            testId={`${testId}-confirm`}
            placeholder={t('password.confirmPlaceholder')}
            {...digits}
          />
        </Form.Item>
      </Form>
    </Page>
  );
}
