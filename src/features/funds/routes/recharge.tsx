/** /user/recharge: request a deposit in NT$ (converted to minor units exactly), then "pending review". */
import { SubmitButton } from '../../../ui/submit-button';
import { Button, Form, Result } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import type { Deposit } from '../../../../contract/funds';
import { toMinor } from '../../../../contract/money';
import { useRechargeMutation } from '../../../api/api';
import { selectLoggedIn } from '../../../api/session';
import { DEPOSIT_MAX_MINOR, DEPOSIT_MIN_MINOR } from '../../../../contract/constants';
import { formatDateTime, formatMinor } from '../../../lib/format';
import { LoginPrompt } from '../../../ui/login-prompt';
import { Page } from '../../../ui/page';
import { TestIdInput } from '../../../ui/testid-input';

/** Amount field → minor units, or the translation key of what is wrong with it. */
export function parseDepositAmount(text: string | undefined): { minor: number } | { error: string } {
  const s = (text ?? '').replace(/,/g, '').trim();
  if (!s) return { error: 'recharge.amountRequired' };
  let minor: number;
  try {
    minor = toMinor(s);
  } catch {
    return { error: 'recharge.amountInvalid' };
  }
  if (minor <= 0) return { error: 'recharge.amountInvalid' };
  if (minor < DEPOSIT_MIN_MINOR) return { error: 'errors.belowMinDeposit' };
  if (minor > DEPOSIT_MAX_MINOR) return { error: 'errors.aboveMaxDeposit' };
  return { minor };
}

export function RechargePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = useSelector(selectLoggedIn);
  const [recharge, { isLoading }] = useRechargeMutation();
  const [done, setDone] = useState<Deposit | null>(null);

  const onFinish = async (v: { amount: string }) => {
    const parsed = parseDepositAmount(v.amount);
    if (!('minor' in parsed)) return;
    const res = await recharge({ amountMinor: parsed.minor });
    if ('data' in res && res.data) setDone(res.data);
  };

  if (!loggedIn)
    return (
      <Page title={t('recharge.title')}>
        <LoginPrompt />
      </Page>
    );

  if (done)
    return (
      <Page title={t('recharge.title')}>
        <Result
          status="waiting"
          title={t(`depositStatus.${done.status}`)}
          description={
            <div data-testid="recharge-result" data-status={done.status}>
              <div>
                {t('common.currency')} {formatMinor(done.amountMinor)}
              </div>
              <div className="muted small">{formatDateTime(done.createdAt)}</div>
              <div className="muted small">{t('recharge.pendingHint')}</div>
            </div>
          }
        />
        <div className="center-pad stack">
          <Button block color="primary" onClick={() => navigate('/user/FundingDetails?tab=deposit')}>
            {t('uc.records')}
          </Button>
          <Button block onClick={() => setDone(null)}>
            {t('recharge.again')}
          </Button>
        </div>
      </Page>
    );

  return (
    <Page title={t('recharge.title')}>
      <Form
        layout="vertical"
        onFinish={onFinish}
        footer={
          <SubmitButton loading={isLoading} testId="recharge-submit">
            {t('recharge.submit')}
          </SubmitButton>
        }
      >
        <Form.Item
          name="amount"
          label={t('recharge.amount', { currency: t('common.currency') })}
          rules={[
            {
              validator: async (_: unknown, v: string | undefined) => {
                const p = parseDepositAmount(v);
                if ('error' in p)
                  throw new Error(
                    t(p.error, { min: formatMinor(DEPOSIT_MIN_MINOR), max: formatMinor(DEPOSIT_MAX_MINOR) }),
                  );
              },
            },
          ]}
          help={t('recharge.limits', {
            min: formatMinor(DEPOSIT_MIN_MINOR),
            max: formatMinor(DEPOSIT_MAX_MINOR),
          })}
        >
          <TestIdInput
            testId="recharge-amount"
            inputMode="decimal"
            placeholder={t('recharge.amountPlaceholder')}
            clearable
          />
        </Form.Item>
      </Form>
      <div className="hint-text">{t('recharge.hours')}</div>
    </Page>
  );
}
