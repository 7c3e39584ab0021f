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
import type { ResOf } from '../../../../contract/api';
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

type Security = ResOf<'user/security'>;

/** A warning when withdrawals are locked after wrong funds passwords, or no funds password is set. */
function PasswordNotice({ security }: { security: Security }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <>
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
    </>
  );
}

/** Available balance, net deposits (practice cap), withdrawable now and the limits, in minor units. */
function WithdrawSummary({
  info,
  cap,
  minMinor,
  maxMinor,
}: {
  info: ResOf<'user/info'>;
  cap: ResOf<'user/withdrawable'>;
  minMinor: number;
  maxMinor: number;
}) {
  const { t } = useTranslation();
  return (
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
  );
}

/** The member's own bank cards to withdraw to, or a link to add one. */
function CardField({ cards }: { cards: ResOf<'user/bankCards'> }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  return (
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
  );
}

/** The amount, checked by `amountError` (a refusal key or null), with the "all" shortcut. */
function AmountField({
  amountError,
  withdrawAll,
}: {
  amountError: (v: string | undefined) => string | null;
  withdrawAll: () => void;
}) {
  const { t } = useTranslation();
  return (
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
  );
}

/** The funds password (six digits), with the tries left after a wrong one. */
function FundsPasswordField({ security }: { security: Security }) {
  const { t } = useTranslation();
  return (
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
  );
}

/**
 * What the withdrawal screen reads: account (user/info), cards, security, the withdrawable cap
 * (user/withdrawable), the limits from common/config (minor units) and `amountError`, the amount's
 * refusal key (the form's rules, then the practice cap: net deposits) or null.
 */
function useWithdrawData() {
  const loggedIn = useSelector(selectLoggedIn);
  const skip = { skip: !loggedIn, refetchOnMountOrArgChange: true } as const;
  const { data: info } = useUserInfoQuery(undefined, skip);
  const { data: cards } = useBankCardsQuery(undefined, skip);
  const { data: security } = useSecurityQuery(undefined, skip);
  const { data: cap } = useWithdrawableQuery(undefined, skip);
  const { data: config } = useConfigQuery();

  const minMinor = limitFromConfig(config?.withdrawMinMinor, WITHDRAW_MIN_MINOR);
  const maxMinor = limitFromConfig(config?.withdrawMaxMinor, WITHDRAW_MAX_MINOR);
  const limits = {
    minMinor,
    maxMinor,
    belowKey: 'errors.belowMinWithdraw',
    aboveKey: 'errors.aboveMaxWithdraw',
    availableMinor: info?.availableMinor,
  };
  const amountError = (v: string | undefined): string | null => {
    const p = parseAmount(v, limits);
    if ('error' in p) return p.error;
    return cap?.rule === 'netDeposits' && p.minor > cap.netDepositsMinor ? 'errors.aboveNetDeposits' : null;
  };
  return { loggedIn, info, cards, security, cap, minMinor, maxMinor, limits, amountError };
}

/**
 * The /user/withdraw screen: a login prompt when logged out, a spinner until account, cards,
 * security and the withdrawable cap arrive, the result once a request is made, else the form.
 */
export function WithdrawPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { loggedIn, info, cards, security, cap, minMinor, maxMinor, limits, amountError } = useWithdrawData();
  const [withdraw, { isLoading }] = useWithdrawMutation();
  const keys = useIdempotencyKeys();
  const [form] = Form.useForm<WithdrawForm>();
  const [done, setDone] = useState<Withdrawal | null>(null);

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
      <PasswordNotice security={security} />
      <WithdrawSummary info={info} cap={cap} minMinor={minMinor} maxMinor={maxMinor} />
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
        <CardField cards={cards} />
        <AmountField amountError={amountError} withdrawAll={withdrawAll} />
        <FundsPasswordField security={security} />
      </Form>
      <div className="hint-text">{t('withdraw.hint')}</div>
    </Page>
  );
}
