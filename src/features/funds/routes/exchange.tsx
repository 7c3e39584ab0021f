/**
 * /user/exchange: currency exchange to and from USD (product-spec §3 "Exchange", §5 "Exchange",
 * §9 "Exchange currencies"; no fee). Source and target pickers over the spec's currencies (one
 * side must be USD; the same currency is refused here with the spec's message), the amount, the
 * applicable rate from user/rates with its source and date, an exact preview of what will be
 * received (contract/money.ts convertMinorFloor: BigInt, rounded down, as the server computes it)
 * and the member's balances per currency (user/balances). Submits user/exchange with an
 * idempotency key; an exchange worth at least the member's confirmation threshold in TWD
 * (../amount.ts exchangeTwdMinor) is confirmed first (src/features/account/components/confirm-above.tsx).
 */
import { Button, NoticeBar } from 'antd-mobile';
import { useMemo, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import '../funds.css';
import { CURRENCIES, type Currency } from '../../../../contract/constants';
import type { Exchange } from '../../../../contract/funds';
import { useBalancesQuery, useExchangeMutation, useRatesQuery } from '../../../api/api';
import { selectLoggedIn } from '../../../api/session';
import { formatDateTime, formatMinor, minorToInput } from '../../../lib/format';
import { Loading } from '../../../ui/loading';
import { LoginPrompt } from '../../../ui/login-prompt';
import { Page } from '../../../ui/page';
import { TestIdInput } from '../../../ui/testid-input';
import {
  applicableRate,
  exchangePreview,
  exchangeTwdMinor,
  isCurrency,
  pairError,
  parseAmount,
} from '../amount';
import { sendWithKey, useIdempotencyKeys } from '../../../api/idempotency';
import { useConfirmAbove } from '../../account';
import { ppmToDecimal } from '../../../../contract/money';

/**
 * A currency picker. Currencies without an operator rate (user/rates; THB, MYR, VND, KRW and INR
 * have no bundled real reference rate, server/modules/fx/rate-source.ts) are listed but disabled
 * and marked, so the member sees why they cannot be picked instead of meeting a refusal.
 */
function CurrencySelect({
  value,
  onChange,
  testId,
  label,
  rated,
}: {
  value: Currency;
  onChange: (c: Currency) => void;
  testId: string;
  label: string;
  /** Currencies with a rate (USD always); undefined while loading (nothing disabled). */
  rated: ReadonlySet<string> | undefined;
}) {
  const { t } = useTranslation();
  return (
    <select
      className="fx-select"
      value={value}
      aria-label={label}
      data-testid={testId}
      onChange={(e) => {
        if (isCurrency(e.target.value)) onChange(e.target.value);
      }}
    >
      {CURRENCIES.map((c) => {
        const noRate = rated !== undefined && !rated.has(c);
        return (
          <option key={c} value={c} disabled={noRate && c !== value}>
            {c} · {t(`currencyName.${c}`)}
            {noRate ? ` (${t('exchange.noRate')})` : ''}
          </option>
        );
      })}
    </select>
  );
}

function Balances({
  available,
}: {
  available: Map<string, { availableMinor: number; frozenMinor: number }>;
}) {
  const { t } = useTranslation();
  // TWD and USD always; other currencies once the member holds some.
  const shown = CURRENCIES.filter(
    (c) => c === 'TWD' || c === 'USD' || (available.get(c)?.availableMinor ?? 0) > 0,
  );
  return (
    <section className="card">
      <h3 className="card-title">{t('exchange.balances')}</h3>
      <div className="fx-balances">
        {shown.map((c) => (
          <div key={c} className="fx-balance">
            <div className="uc-k">
              {c} · {t(`currencyName.${c}`)}
            </div>
            <div className="uc-v" data-testid={`balance-${c}`}>
              {formatMinor(available.get(c)?.availableMinor ?? 0)}
            </div>
            {(available.get(c)?.frozenMinor ?? 0) > 0 && (
              <div className="muted small">
                {t('uc.frozen')} {formatMinor(available.get(c)?.frozenMinor)}
              </div>
            )}
          </div>
        ))}
      </div>
    </section>
  );
}

/**
 * The member's balances by currency (user/balances) and the rates (user/rates), with the set of
 * currencies that have a rate (USD always; undefined while loading).
 */
function useExchangeData() {
  const loggedIn = useSelector(selectLoggedIn);
  const opts = { skip: !loggedIn, refetchOnMountOrArgChange: true } as const;
  const { data: balances } = useBalancesQuery(undefined, opts);
  const { data: rates, isError: ratesFailed } = useRatesQuery(undefined, opts);
  const available = useMemo(() => new Map((balances ?? []).map((b) => [b.currency, b] as const)), [balances]);
  const rated = useMemo(
    () => (rates ? new Set<string>(['USD', ...rates.map((r) => r.currency)]) : undefined),
    [rates],
  );
  return { loggedIn, balances, rates, ratesFailed, available, rated };
}

/**
 * The confirmation asked before an exchange at or above the member's threshold: paid and received
 * (minor units of `from` / `to`), the rate line and the value in TWD (minor units; null: unknown).
 */
function confirmRequest(
  t: TFunction,
  p: {
    from: Currency;
    to: Currency;
    payMinor: number;
    receiveMinor: number;
    rateText: string;
    twdMinor: number | null;
  },
) {
  return {
    amountMinor: p.twdMinor,
    title: t('confirm.exchangeTitle'),
    confirmText: t('exchange.submit'),
    rows: [
      { label: t('confirm.pay'), value: `${formatMinor(p.payMinor)} ${p.from}`, testId: 'pay' },
      { label: t('confirm.receive'), value: `${formatMinor(p.receiveMinor)} ${p.to}`, testId: 'receive' },
      { label: t('exchange.rate'), value: p.rateText, testId: 'rate' },
      {
        label: t('confirm.twdValue'),
        value: p.twdMinor !== null ? `${formatMinor(p.twdMinor)} TWD` : t('confirm.twdValueUnknown'),
        testId: 'twd',
      },
    ],
  };
}

/**
 * The exchange form's state: balances and rates (user/balances, user/rates), the chosen pair and
 * amount, the derived rate, preview (minor units of the target currency) and first problem (a
 * translation key), and the submit handler (confirm above threshold, then user/exchange with an
 * idempotency key).
 */
function useExchangeForm() {
  const { t } = useTranslation();
  const data = useExchangeData();
  const { rates, available } = data;
  const [exchange, { isLoading }] = useExchangeMutation();
  const keys = useIdempotencyKeys();
  const confirmAbove = useConfirmAbove();
  const [from, setFrom] = useState<Currency>('TWD');
  const [to, setTo] = useState<Currency>('USD');
  const [amount, setAmount] = useState('');
  const [touched, setTouched] = useState(false);
  const [last, setLast] = useState<Exchange | null>(null);

  const fromAvailable = available.get(from)?.availableMinor ?? 0;
  const pair = pairError(from, to);
  const rate = applicableRate(from, to, rates);
  const parsed = parseAmount(amount, { availableMinor: fromAvailable });
  const preview = 'minor' in parsed && !pair ? exchangePreview(from, to, parsed.minor, rates) : null;

  // The first problem the member should see, as a translation key.
  const problem =
    pair ??
    (rates && !rate ? 'errors.rateUnavailable' : null) ??
    (touched && 'error' in parsed ? parsed.error : null) ??
    (preview && preview.toMinor === 0 ? 'exchange.tooSmall' : null);
  const canSubmit = !problem && !!preview && preview.toMinor > 0;
  const rateText = rate
    ? t('exchange.rateLine', {
        rate: ppmToDecimal(rate.ratePpm),
        currency: from === 'USD' ? to : from,
      })
    : '';

  const onSubmit = async () => {
    setTouched(true);
    if (!canSubmit || !('minor' in parsed) || !preview) return;
    // At or above the member's threshold (valued in TWD: exchangeTwdMinor), ask first.
    const twdMinor = exchangeTwdMinor(from, to, parsed.minor, preview.toMinor, rates);
    const confirmed = await confirmAbove(
      confirmRequest(t, {
        from,
        to,
        payMinor: parsed.minor,
        receiveMinor: preview.toMinor,
        rateText,
        twdMinor,
      }),
    );
    if (!confirmed) return;
    const res = await sendWithKey(keys, { from, to, amountMinor: parsed.minor }, exchange);
    if (res) {
      setLast(res);
      setAmount('');
      setTouched(false);
    }
  };

  return {
    ...data,
    isLoading,
    from,
    setFrom,
    to,
    setTo,
    amount,
    setAmount,
    setTouched,
    last,
    setLast,
    fromAvailable,
    pair,
    rate,
    preview,
    problem,
    rateText,
    onSubmit,
  };
}

type ExchangeForm = ReturnType<typeof useExchangeForm>;

/** The source picker, the available balance with the swap button, and the target picker. */
function PairRows({ form }: { form: ExchangeForm }) {
  const { t } = useTranslation();
  const { from, to, setFrom, setTo, setLast, rated, fromAvailable } = form;
  return (
    <>
      <div className="fx-row">
        <span className="fx-label">{t('exchange.from')}</span>
        <CurrencySelect
          value={from}
          onChange={(c) => {
            setFrom(c);
            setLast(null);
          }}
          testId="exchange-from"
          label={t('exchange.from')}
          rated={rated}
        />
      </div>
      <div className="fx-swap-row">
        <span className="muted small">
          {t('exchange.available')} {formatMinor(fromAvailable)} {from}
        </span>
        <Button
          size="mini"
          fill="outline"
          data-testid="exchange-swap"
          aria-label={t('exchange.swap')}
          onClick={() => {
            setFrom(to);
            setTo(from);
            setLast(null);
          }}
        >
          {t('exchange.swap')}
        </Button>
      </div>
      <div className="fx-row">
        <span className="fx-label">{t('exchange.to')}</span>
        <CurrencySelect
          value={to}
          onChange={(c) => {
            setTo(c);
            setLast(null);
          }}
          testId="exchange-to"
          label={t('exchange.to')}
          rated={rated}
        />
      </div>
    </>
  );
}

/** The amount input with its "all" shortcut (the whole available balance of the source). */
function AmountRow({ form }: { form: ExchangeForm }) {
  const { t } = useTranslation();
  const { amount, setAmount, setLast, setTouched, from, fromAvailable } = form;
  return (
    <div className="fx-row">
      <span className="fx-label">{t('exchange.amount')}</span>
      <TestIdInput
        testId="exchange-amount"
        className="fx-amount"
        inputMode="decimal"
        value={amount}
        onChange={(v) => {
          setAmount(v);
          setLast(null);
        }}
        onBlur={() => setTouched(true)}
        placeholder={t('exchange.amountPlaceholder', { currency: from })}
        clearable
      />
      <span
        className="nav-link"
        data-testid="exchange-all"
        onClick={() => {
          if (fromAvailable > 0) setAmount(minorToInput(fromAvailable));
        }}
      >
        {t('withdraw.all')}
      </span>
    </div>
  );
}

/** The rate with its source and date, what will be received (minor units of `to`) and the fee (none). */
function Preview({ form }: { form: ExchangeForm }) {
  const { t } = useTranslation();
  const { rate, rateText, preview, to } = form;
  return (
    <div className="preview">
      <div className="kv">
        <span className="kv-k">{t('exchange.rate')}</span>
        <span className="kv-v" data-testid="exchange-rate" data-ppm={rate?.ratePpm}>
          {rateText}
        </span>
      </div>
      {rate && (
        <div className="kv">
          <span className="kv-k">{t('exchange.rateSource')}</span>
          <span className="kv-v small" data-testid="exchange-rate-source">
            {rate.rate.source.includes(rate.rate.asOf)
              ? rate.rate.source
              : `${rate.rate.source} · ${rate.rate.asOf}`}
          </span>
        </div>
      )}
      <div className="kv">
        <span className="kv-k">{t('exchange.receive')}</span>
        <span className="kv-v fx-receive" data-testid="exchange-preview">
          {preview ? `${formatMinor(preview.toMinor)} ${to}` : ''}
        </span>
      </div>
      <div className="kv">
        <span className="kv-k">{t('exchange.fee')}</span>
        <span className="kv-v">{formatMinor(0)}</span>
      </div>
    </div>
  );
}

/** The exchange just made: paid, received, rate and time. */
function ExchangeResult({ last }: { last: Exchange }) {
  const { t } = useTranslation();
  return (
    <NoticeBar
      color="info"
      wrap
      data-testid="exchange-result"
      content={t('exchange.done', {
        paid: `${formatMinor(last.fromMinor)} ${last.from}`,
        got: `${formatMinor(last.toMinor)} ${last.to}`,
        rate: ppmToDecimal(last.ratePpm),
        at: formatDateTime(last.createdAt),
      })}
    />
  );
}

/**
 * The /user/exchange screen: a login prompt when logged out, a spinner until balances and rates
 * (or a rate failure) arrive, then the member's balances, the exchange form and the last result.
 */
export function ExchangePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useExchangeForm();
  const { loggedIn, balances, rates, ratesFailed, available, problem, pair, rate, last } = form;

  if (!loggedIn)
    return (
      <Page title={t('exchange.title')}>
        <LoginPrompt />
      </Page>
    );
  if (!balances || (!rates && !ratesFailed))
    return (
      <Page title={t('exchange.title')}>
        <Loading />
      </Page>
    );

  return (
    <Page
      title={t('exchange.title')}
      right={
        <span className="nav-link" onClick={() => navigate('/user/FundingDetails?tab=exchange')}>
          {t('uc.records')}
        </span>
      }
    >
      <Balances available={available} />
      <section className="card fx-form">
        <PairRows form={form} />
        <AmountRow form={form} />
        <Preview form={form} />
        {problem && (
          <div className="field-error" role="alert" data-testid="exchange-error" data-key={problem}>
            {t(problem)}
          </div>
        )}
        <Button
          block
          color="primary"
          size="large"
          loading={form.isLoading}
          disabled={!!pair || (!!rates && !rate)}
          onClick={() => void form.onSubmit()}
          data-testid="exchange-submit"
        >
          {t('exchange.submit')}
        </Button>
        <div className="hint-text">{t('exchange.hint')}</div>
      </section>
      {last && <ExchangeResult last={last} />}
    </Page>
  );
}
