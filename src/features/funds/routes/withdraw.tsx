/**
 * /user/withdraw: amount, funds password and one of the member's own bank cards (product-spec §3
 * "Withdrawal", §5 "Withdraw"). Shows the available balance, what may be withdrawn now and why
 * (user/withdrawable: on a replayed market, a practice venue, at most the member's net deposits),
 * and the limits from common/config
 * (withdrawMinMinor / withdrawMaxMinor, defaults from the contract); warns when no funds password
 * is set (link to /user/setPassword) or withdrawals are locked after wrong ones; links to
 * /user/BankCard when the member has no card. Submits user/withdraw with an idempotency key;
 * on request the amount moves from available to frozen until an operator reviews it.
 */
import { Button, Form, NoticeBar, Radio, Result } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import '../funds.css';
import {
  FUNDS_PASSWORD_MAX_TRIES,
  FUNDS_PASSWORD_RE,
  WITHDRAW_MAX_MINOR,
  WITHDRAW_MIN_MINOR,
} from '../../../../contract/constants';
import { bankDisplayName } from '../../../../contract/banks';
import type { Withdrawal } from '../../../../contract/funds';
import {
  useBankCardsQuery,
  useConfigQuery,
  useSecurityQuery,
  useUserInfoQuery,
  useWithdrawableQuery,
  useWithdrawMutation,
} from '../../../api/api';
import { selectLoggedIn } from '../../../api/session';
import { formatDateTime, formatMinor, langOf, minorToInput } from '../../../lib/format';
import { keyRule } from '../../../ui/form-rule';
import { Loading } from '../../../ui/loading';
import { LoginPrompt } from '../../../ui/login-prompt';
import { Page } from '../../../ui/page';
import { SubmitButton } from '../../../ui/submit-button';
import { TestIdInput } from '../../../ui/testid-input';
import { limitFromConfig, parseAmount } from '../amount';
import { sendWithKey, useIdempotencyKeys } from '../../../api/idempotency';

interface WithdrawForm {
  amount: string;
  fundsPassword: string;
  cardId: number | null;
}

function WithdrawDone({ w, onAgain }: { w: Withdrawal; onAgain: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <>
      <Result
        status="waiting"
        title={t(`withdrawStatus.${w.status}`)}
        description={
          <div data-testid="withdraw-result" data-status={w.status}>
            <div>
              {t('common.currency')} {formatMinor(w.amountMinor)}
            </div>
            <div>{w.cardLabel}</div>
            <div className="muted small">{formatDateTime(w.createdAt)}</div>
            <div className="muted small">{t('withdraw.pendingHint')}</div>
          </div>
        }
      />
      <div className="center-pad stack">
        <Button block color="primary" onClick={() => navigate('/user/FundingDetails?tab=withdrawal')}>
          {t('uc.records')}
        </Button>
        <Button block onClick={onAgain}>
          {t('withdraw.again')}
        </Button>
      </div>
    </>
  );
}

export function WithdrawPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = useSelector(selectLoggedIn);
  const skip = { skip: !loggedIn, refetchOnMountOrArgChange: true } as const;
  const { data: info } = useUserInfoQuery(undefined, skip);
  const { data: cards } = useBankCardsQuery(undefined, skip);
  const { data: security } = useSecurityQuery(undefined, skip);
  const { data: cap } = useWithdrawableQuery(undefined, skip);
  const { data: config } = useConfigQuery();
  const [withdraw, { isLoading }] = useWithdrawMutation();
  const keys = useIdempotencyKeys();
  const [form] = Form.useForm<WithdrawForm>();
  const [done, setDone] = useState<Withdrawal | null>(null);

  const minMinor = limitFromConfig(config?.withdrawMinMinor, WITHDRAW_MIN_MINOR);
  const maxMinor = limitFromConfig(config?.withdrawMaxMinor, WITHDRAW_MAX_MINOR);
  const limits = {
    minMinor,
    maxMinor,
    belowKey: 'errors.belowMinWithdraw',
    aboveKey: 'errors.aboveMaxWithdraw',
    availableMinor: info?.availableMinor,
  };
  /** The amount's refusal key: the form's rules, then the practice cap (net deposits). */
  const amountError = (v: string | undefined): string | null => {
    const p = parseAmount(v, limits);
    if ('error' in p) return p.error;
    return cap?.rule === 'netDeposits' && p.minor > cap.netDepositsMinor ? 'errors.aboveNetDeposits' : null;
  };

  if (!loggedIn)
    return (
      <Page title={t('withdraw.title')}>
        <LoginPrompt />
      </Page>
    );
  if (!info || !cards || !security || !cap)
    return (
      <Page title={t('withdraw.title')}>
        <Loading />
      </Page>
    );
  if (done)
    return (
      <Page title={t('withdraw.title')}>
        <WithdrawDone
          w={done}
          onAgain={() => {
            setDone(null);
            form.resetFields();
          }}
        />
      </Page>
    );

  const onFinish = async (v: WithdrawForm) => {
    const parsed = parseAmount(v.amount, limits);
    if (!('minor' in parsed) || amountError(v.amount) || v.cardId === null) return;
    const body = { amountMinor: parsed.minor, fundsPassword: v.fundsPassword, cardId: v.cardId };
    const res = await sendWithKey(keys, body, withdraw);
    if (res) setDone(res);
    else form.setFieldValue('fundsPassword', '');
  };

  const withdrawAll = () => {
    const all = Math.min(cap.withdrawableMinor, maxMinor);
    if (all > 0) form.setFieldValue('amount', minorToInput(all));
  };

  return (
    <Page
      title={t('withdraw.title')}
      right={
        <span className="nav-link" onClick={() => navigate('/user/FundingDetails?tab=withdrawal')}>
          {t('uc.records')}
        </span>
      }
    >
      {security.fundsPasswordLocked ? (
        <NoticeBar
          color="error"
          wrap
          content={t('errors.fundsPasswordLocked')}
          data-testid="withdraw-locked"
        />
      ) : (
        !security.fundsPasswordSet && (
          <NoticeBar
            color="alert"
            wrap
            data-testid="withdraw-no-funds-password"
            content={t('withdraw.noFundsPassword')}
            extra={
              <span className="nav-link" onClick={() => navigate('/user/setPassword')}>
                {t('withdraw.setFundsPassword')}
              </span>
            }
          />
        )
      )}
      <section className="card">
        <div className="kv">
          <span className="kv-k">{t('withdraw.available')}</span>
          <span className="kv-v" data-testid="withdraw-available">
            {t('common.currency')} {formatMinor(info.availableMinor)}
          </span>
        </div>
        {cap.rule === 'netDeposits' && (
          <div className="kv">
            <span className="kv-k">{t('withdraw.netDeposits')}</span>
            <span className="kv-v" data-testid="withdraw-net-deposits">
              {t('common.currency')} {formatMinor(cap.netDepositsMinor)}
            </span>
          </div>
        )}
        <div className="kv">
          <span className="kv-k">{t('withdraw.withdrawable')}</span>
          <span className="kv-v" data-testid="withdraw-withdrawable">
            {t('common.currency')} {formatMinor(cap.withdrawableMinor)}
          </span>
        </div>
        <div className="kv">
          <span className="kv-k">{t('withdraw.limitsLabel')}</span>
          <span className="kv-v" data-testid="withdraw-limits">
            {t('common.currency')} {formatMinor(minMinor)} – {formatMinor(maxMinor)}
          </span>
        </div>
        {cap.practice && (
          <div className="muted small withdraw-why" data-testid="withdraw-why">
            {t(cap.rule === 'netDeposits' ? 'withdraw.practiceWhy' : 'withdraw.practiceAll')}
          </div>
        )}
      </section>
      <Form
        form={form}
        layout="vertical"
        onFinish={onFinish}
        initialValues={{ cardId: cards.length === 1 ? cards[0]!.id : null }}
        footer={
          <SubmitButton loading={isLoading} testId="withdraw-submit">
            {t('withdraw.submit')}
          </SubmitButton>
        }
      >
        <Form.Item
          name="cardId"
          label={t('withdraw.card')}
          rules={[keyRule<number | null>(t, (v) => (v ? null : 'withdraw.cardRequired'))]}
        >
          {cards.length === 0 ? (
            <div className="stack" data-testid="withdraw-no-cards">
              <div className="muted">{t('withdraw.noCards')}</div>
              <Button size="small" color="primary" fill="outline" onClick={() => navigate('/user/BankCard')}>
                {t('card.add')}
              </Button>
            </div>
          ) : (
            <Radio.Group>
              <div className="stack">
                {cards.map((c) => (
                  <Radio key={c.id} value={c.id} data-testid={`withdraw-card-${c.id}`}>
                    {bankDisplayName(c.bankCode, c.bankName, langOf(i18n.language))} {c.cardNumberMasked}
                    <span className="muted small"> · {c.holderName}</span>
                  </Radio>
                ))}
              </div>
            </Radio.Group>
          )}
        </Form.Item>
        <Form.Item
          name="amount"
          label={t('withdraw.amount', { currency: t('common.currency') })}
          rules={[keyRule(t, amountError)]}
          extra={
            <span className="nav-link" onClick={withdrawAll} data-testid="withdraw-all">
              {t('withdraw.all')}
            </span>
          }
        >
          <TestIdInput
            testId="withdraw-amount"
            inputMode="decimal"
            placeholder={t('withdraw.amountPlaceholder')}
            clearable
          />
        </Form.Item>
        <Form.Item
          name="fundsPassword"
          label={t('password.funds')}
          rules={[
            keyRule(t, (v: string | undefined) =>
              !v ? 'password.fundsRequired' : FUNDS_PASSWORD_RE.test(v) ? null : 'password.fundsRule',
            ),
          ]}
          description={
            security.fundsPasswordSet &&
            !security.fundsPasswordLocked &&
            security.fundsPasswordTriesLeft < FUNDS_PASSWORD_MAX_TRIES
              ? t('password.triesLeft', { count: security.fundsPasswordTriesLeft })
              : undefined
          }
        >
          <TestIdInput
            testId="withdraw-funds-password"
            type="password"
            inputMode="numeric"
            maxLength={6}
            autoComplete="off"
            placeholder={t('password.fundsPlaceholder')}
          />
        </Form.Item>
      </Form>
      <div className="hint-text">{t('withdraw.hint')}</div>
    </Page>
  );
}
