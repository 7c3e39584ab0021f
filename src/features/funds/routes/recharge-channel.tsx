/**
 * /user/rechargeChannel?id=…: a deposit through one channel (product-spec §3 "Deposit", §5
 * "Deposit"). Shows where to transfer (bank account name and number, bank, branch) and the
 * channel's limits; takes the amount (within the limits), the transfer receipt (uploaded first:
 * submit stays disabled until that upload succeeded) and the channel password when the channel
 * has one. That password is set per channel by the operator (console, Channels) and given to
 * members by customer service, so the field says so and links to /user/service. A member without
 * a verified identity is told to verify first (link to /user/bandCard) and cannot submit. Submits user/recharge with an idempotency key (src/api/idempotency.ts), then shows the
 * request pending review.
 */
import { Button, Form, NoticeBar, Result } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import '../funds.css';
import type { Deposit, DepositChannel } from '../../../../contract/funds';
import { useDepositChannelsQuery, useRechargeMutation, useUserInfoQuery } from '../../../api/api';
import { selectLoggedIn } from '../../../api/session';
import { formatDateTime, formatMinor } from '../../../lib/format';
import { keyRule } from '../../../ui/form-rule';
import { ImagePicker } from '../../../ui/image-picker';
import { CopyButton } from '../../../ui/copy-button';
import { bankByName } from '../../../../contract/banks';
import { Loading } from '../../../ui/loading';
import { LoginPrompt } from '../../../ui/login-prompt';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';
import { TestIdInput } from '../../../ui/testid-input';
import { parseAmount } from '../amount';
import { DepositHours } from '../components/deposit-hours';
import { VerifyFirst } from '../components/verify-first';
import { sendWithKey, useIdempotencyKeys } from '../../../api/idempotency';

interface DepositForm {
  amount: string;
  receipt: string | null;
  channelPassword?: string;
}

const currencyLabel = (c: string, t: (k: string) => string) => (c === 'TWD' ? t('common.currency') : c);

function ChannelInfo({ channel }: { channel: DepositChannel }) {
  const { t } = useTranslation();
  // The receiving bank's FISC code, which a transfer from another bank asks for first
  // (contract/banks.ts, read from the channel's bank name).
  const bankCode = bankByName(channel.bankName)?.code ?? null;
  const rows: (readonly [key: string, value: string, testId: string, copy: boolean])[] = [
    ['recharge.accountName', channel.accountName, 'channel-account-name', false],
    ...(bankCode ? [['recharge.bankCode', bankCode, 'channel-bank-code', true] as const] : []),
    ['recharge.accountNumber', channel.accountNumber, 'channel-account-number', true],
    ['recharge.bank', channel.bankName, 'channel-bank', false],
    ['recharge.branch', channel.branch, 'channel-branch', false],
  ];
  return (
    <section className="card" data-testid="channel-info">
      <h3 className="card-title">{channel.name}</h3>
      {rows.map(([k, v, id, copy]) => (
        <div className="kv" key={k}>
          <span className="kv-k">{t(k)}</span>
          <span className="kv-v">
            <span data-testid={id}>{v}</span>
            {copy && v && <CopyButton text={v} label={t(k)} testId={`${id}-copy`} />}
          </span>
        </div>
      ))}
      <div className="kv">
        <span className="kv-k">{t('recharge.limitsLabel')}</span>
        <span className="kv-v">
          {currencyLabel(channel.currency, t)} {formatMinor(channel.minMinor)} –{' '}
          {formatMinor(channel.maxMinor)}
        </span>
      </div>
      <div className="muted small">{t('recharge.transferHint')}</div>
    </section>
  );
}

function DepositDone({ deposit, onAgain }: { deposit: Deposit; onAgain: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <>
      <Result
        status="waiting"
        title={t(`depositStatus.${deposit.status}`)}
        description={
          <div data-testid="recharge-result" data-status={deposit.status}>
            <div>
              {currencyLabel(deposit.currency, t)} {formatMinor(deposit.amountMinor)}
            </div>
            <div className="muted small">{formatDateTime(deposit.createdAt)}</div>
            <div className="muted small">{t('recharge.pendingHint')}</div>
          </div>
        }
      />
      <div className="center-pad stack">
        <Button block color="primary" onClick={() => navigate('/user/FundingDetails?tab=deposit')}>
          {t('uc.records')}
        </Button>
        <Button block onClick={onAgain}>
          {t('recharge.again')}
        </Button>
      </div>
    </>
  );
}

function DepositFormView({
  channel,
  open,
  onDone,
}: {
  channel: DepositChannel;
  open: boolean;
  onDone: (d: Deposit) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<DepositForm>();
  const [recharge, { isLoading }] = useRechargeMutation();
  const keys = useIdempotencyKeys();
  const [receipt, setReceipt] = useState<string | null>(null);
  const limits = {
    minMinor: channel.minMinor,
    maxMinor: channel.maxMinor,
    belowKey: 'errors.belowMinDeposit',
    aboveKey: 'errors.aboveMaxDeposit',
  };

  const onFinish = async (v: DepositForm) => {
    const parsed = parseAmount(v.amount, limits);
    if (!('minor' in parsed) || !receipt) return;
    const body = {
      channelId: channel.id,
      amountMinor: parsed.minor,
      receiptUploadId: receipt,
      ...(channel.hasPassword ? { channelPassword: v.channelPassword ?? '' } : {}),
    };
    const res = await sendWithKey(keys, body, recharge);
    if (res) onDone(res);
  };

  const cur = currencyLabel(channel.currency, t);
  return (
    <Form
      form={form}
      layout="vertical"
      onFinish={onFinish}
      footer={
        <>
          {!receipt && <div className="hint-text center">{t('recharge.receiptFirst')}</div>}
          <Button
            block
            type="submit"
            color="primary"
            size="large"
            loading={isLoading}
            disabled={!receipt || !open}
            data-testid="recharge-submit"
          >
            {t('recharge.submit')}
          </Button>
        </>
      }
    >
      <Form.Item
        name="amount"
        label={t('recharge.amount', { currency: cur })}
        rules={[
          keyRule(t, (v: string | undefined) => {
            const p = parseAmount(v, limits);
            return 'error' in p ? p.error : null;
          }),
        ]}
        description={t('recharge.limits', {
          currency: cur,
          min: formatMinor(channel.minMinor),
          max: formatMinor(channel.maxMinor),
        })}
      >
        <TestIdInput
          testId="recharge-amount"
          inputMode="decimal"
          placeholder={t('recharge.amountPlaceholder')}
          clearable
        />
      </Form.Item>
      <Form.Item name="receipt" label={t('recharge.receipt')}>
        <ImagePicker
          purpose="receipt"
          label={t('recharge.receiptHint')}
          testId="recharge-receipt"
          onChange={setReceipt}
        />
      </Form.Item>
      {channel.hasPassword && (
        <Form.Item
          name="channelPassword"
          label={t('recharge.channelPassword')}
          rules={[keyRule(t, (v: string | undefined) => (v ? null : 'recharge.channelPasswordRequired'))]}
          description={
            <span data-testid="recharge-channel-password-hint">
              {t('recharge.channelPasswordHint')}{' '}
              <Link to="/user/service" data-testid="recharge-ask-service">
                {t('recharge.askService')}
              </Link>
            </span>
          }
        >
          <TestIdInput
            testId="recharge-channel-password"
            type="password"
            autoComplete="off"
            placeholder={t('recharge.channelPasswordPlaceholder')}
            clearable
          />
        </Form.Item>
      )}
    </Form>
  );
}

export function RechargeChannelPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = useSelector(selectLoggedIn);
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const { data, isError } = useDepositChannelsQuery(undefined, {
    skip: !loggedIn,
    refetchOnMountOrArgChange: true,
  });
  const { data: info } = useUserInfoQuery(undefined, { skip: !loggedIn, refetchOnMountOrArgChange: true });
  const channel = data?.channels.find((c) => c.id === id);
  const [done, setDone] = useState<Deposit | null>(null);

  return (
    <Page title={t('recharge.title')}>
      {!loggedIn ? (
        <LoginPrompt />
      ) : done ? (
        <DepositDone deposit={done} onAgain={() => setDone(null)} />
      ) : !data && !isError ? (
        <Loading />
      ) : !channel || !data ? (
        <>
          <NoData testId="channel-missing" />
          <div className="center-pad">
            <Button color="primary" onClick={() => navigate('/user/recharge', { replace: true })}>
              {t('recharge.chooseChannel')}
            </Button>
          </div>
        </>
      ) : (
        <>
          <VerifyFirst status={info?.kycStatus} />
          {!data.openNow && <NoticeBar color="alert" wrap content={t('errors.notDepositTime')} />}
          <DepositHours data={data} />
          <ChannelInfo channel={channel} />
          {/* Known unverified: submit stays off (the server refuses it: depositNeedsVerification). */}
          <DepositFormView
            channel={channel}
            open={data.openNow && (info === undefined || info.kycStatus === 'verified')}
            onDone={setDone}
          />
        </>
      )}
    </Page>
  );
}
