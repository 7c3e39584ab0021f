/**
 * /common/lending (home shortcut "stock lending", 借券; not a spec route): the channel's terms, the
 * member's holdings eligible to lend (fully paid longs), a lend form (shares, annual rate within
 * the cap, business days) with the estimated daily rebate (contract/lending.ts lendingFeeMinor at
 * the reference price), and the member's lending orders with state, accrued rebate and recall.
 */
import { Button, Dialog, DotLoading, Input } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { lendingFeeMinor, type LendableHolding } from '../../../../contract/lending';
import { sendWithKey, useIdempotencyKeys } from '../../../api/idempotency';
import { selectLoggedIn } from '../../../api/session';
import { formatMinor, langOf } from '../../../lib/format';
import { instrumentName } from '../../../live/names-en';
import { LoginPrompt } from '../../../ui/login-prompt';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';
import {
  useLendingOrdersQuery,
  useLendingOverviewQuery,
  useLendMutation,
  useRecallLendingMutation,
} from '../api/lending-api';
import { KvLine } from '../../../ui/kv-line';
import { StatusTag } from '../components/parts';
import '../lending.css';
import { bpsToDecimal, formatBps, parsePercentToBps } from '../../../../contract/money';

function LendForm({
  holding,
  capBps,
  maxDays,
  onDone,
}: {
  holding: LendableHolding;
  capBps: number;
  maxDays: number;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation();
  const named = instrumentName(holding, langOf(i18n.language));
  const [shares, setShares] = useState(String(holding.lendableShares));
  const [rate, setRate] = useState(bpsToDecimal(Math.floor(capBps / 2)));
  const [days, setDays] = useState('20');
  const [lendCall, lending] = useLendMutation();
  const keys = useIdempotencyKeys();
  const n = Number(shares);
  const bps = parsePercentToBps(rate);
  const d = Number(days);
  const sharesOk = Number.isInteger(n) && n >= 1 && n <= holding.lendableShares;
  const rateOk = bps !== null && bps >= 1 && bps <= capBps;
  const daysOk = Number.isInteger(d) && d >= 1 && d <= maxDays;
  const submit = async () => {
    if (!sharesOk || !rateOk || !daysOk) return;
    const done = await sendWithKey(
      keys,
      { orderId: holding.orderId, shares: n, rateBps: bps, days: d },
      lendCall,
    );
    if (done) onDone();
  };
  return (
    <section className="card lending-form" data-testid="lending-form">
      <h3 className="card-title">{t('lending.lendTitle', { name: `${named} ${holding.symbol}` })}</h3>
      <label className="kv">
        <span className="kv-k">{t('lending.shares')}</span>
        <Input value={shares} onChange={setShares} inputMode="numeric" data-testid="lending-shares" />
      </label>
      {!sharesOk && (
        <p className="lending-error small">{t('lending.sharesInvalid', { max: holding.lendableShares })}</p>
      )}
      <label className="kv">
        <span className="kv-k">{t('lending.rate')}</span>
        <Input value={rate} onChange={setRate} inputMode="decimal" data-testid="lending-rate" />
      </label>
      {!rateOk && (
        <p className="lending-error small">{t('lending.rateInvalid', { max: bpsToDecimal(capBps) })}</p>
      )}
      <label className="kv">
        <span className="kv-k">{t('lending.days')}</span>
        <Input value={days} onChange={setDays} inputMode="numeric" data-testid="lending-days" />
      </label>
      {!daysOk && <p className="lending-error small">{t('lending.daysInvalid', { max: maxDays })}</p>}
      <KvLine
        label={t('lending.estimate')}
        value={sharesOk && rateOk ? formatMinor(lendingFeeMinor(n, holding.referenceMinor, bps)) : ''}
        testId="lending-estimate"
      />
      <div className="lending-actions">
        <Button
          color="primary"
          disabled={!sharesOk || !rateOk || !daysOk}
          loading={lending.isLoading}
          onClick={submit}
          data-testid="lending-submit"
        >
          {t('lending.submit')}
        </Button>
      </div>
    </section>
  );
}

export function LendingPage() {
  const { t, i18n } = useTranslation();
  const lang = langOf(i18n.language);
  const loggedIn = useSelector(selectLoggedIn);
  const overview = useLendingOverviewQuery(undefined, { skip: !loggedIn });
  const orders = useLendingOrdersQuery(undefined, { skip: !loggedIn });
  const [recallCall] = useRecallLendingMutation();
  const recallKeys = useIdempotencyKeys();
  const [picked, setPicked] = useState<number | null>(null);

  if (!loggedIn)
    return (
      <Page title={t('lending.title')}>
        <LoginPrompt />
      </Page>
    );
  const o = overview.data;
  if (!o)
    return (
      <Page title={t('lending.title')}>
        <div className="center-fill">
          <DotLoading color="primary" />
        </div>
      </Page>
    );
  const holding = o.holdings.find((h) => h.orderId === picked && h.lendableShares > 0);
  const recall = async (id: number) => {
    const ok = await Dialog.confirm({
      content: t('lending.recallConfirm'),
      confirmText: t('lending.recall'),
      cancelText: t('common.cancel'),
    });
    if (ok) await sendWithKey(recallKeys, { id }, recallCall);
  };
  return (
    <Page title={t('lending.title')}>
      <section className="card" data-testid="lending-terms">
        {!o.channelOpen && <p className="lending-error">{t('lending.channelClosed')}</p>}
        <p className="muted small">{t('lending.terms', { cap: formatBps(o.rateCapBps), days: o.maxDays })}</p>
        <KvLine
          label={t('lending.rebateTotal')}
          value={formatMinor(o.rebateTotalMinor)}
          testId="lending-total"
        />
      </section>
      <h3 className="card-title lending-section">{t('lending.holdings')}</h3>
      {o.holdings.length === 0 ? (
        <p className="muted small lending-row">{t('lending.noHoldings')}</p>
      ) : (
        <div className="list-card" data-testid="lending-holdings">
          {o.holdings.map((h) => (
            <div className="lending-row" key={h.orderId} data-testid="lending-holding">
              <div className="lending-row-head">
                <span className="lending-name">
                  {instrumentName(h, lang)} <span className="muted small">{h.symbol}</span>
                </span>
                <Button
                  size="mini"
                  color="primary"
                  fill="outline"
                  disabled={!o.channelOpen || h.lendableShares === 0}
                  onClick={() => setPicked(h.orderId)}
                  data-testid="lending-pick"
                >
                  {t('lending.lend')}
                </Button>
              </div>
              <KvLine label={t('lending.shares')} value={h.shares.toLocaleString()} />
              <KvLine label={t('lending.lendable')} value={h.lendableShares.toLocaleString()} />
              <KvLine label={t('lending.reference')} value={formatMinor(h.referenceMinor)} />
              <p className="muted small">
                {t('lending.quota', {
                  lent: h.lentShares.toLocaleString(),
                  quota: h.quotaShares.toLocaleString(),
                })}
              </p>
            </div>
          ))}
        </div>
      )}
      {holding && (
        <LendForm
          key={holding.orderId}
          holding={holding}
          capBps={o.rateCapBps}
          maxDays={o.maxDays}
          onDone={() => setPicked(null)}
        />
      )}
      <h3 className="card-title lending-section">{t('lending.orders')}</h3>
      {orders.data && orders.data.items.length === 0 ? (
        <NoData />
      ) : (
        <div className="list-card" data-testid="lending-orders">
          {(orders.data?.items ?? []).map((r) => (
            <div className="lending-row" key={r.id} data-testid="lending-order">
              <div className="lending-row-head">
                <span className="lending-name">
                  {instrumentName(r, lang)} <span className="muted small">{r.symbol}</span>
                </span>
                <StatusTag status={r.status} />
              </div>
              <KvLine
                label={t('lending.lent')}
                value={`${r.shares.toLocaleString()} · ${formatBps(r.rateBps)}`}
              />
              <KvLine
                label={t('lending.period')}
                value={
                  t('lending.periodValue', { start: r.startDate, days: r.days }) +
                  (r.status === 'inLoan' ? ` · ${t('lending.daysLeft', { days: r.daysLeft })}` : '')
                }
                testId="lending-period"
              />
              <KvLine
                label={t('lending.rebate')}
                value={`${formatMinor(r.rebateMinor)} (${t('lending.accrued', { days: r.accruedDays })})`}
                testId="lending-rebate"
              />
              <KvLine label={t('lending.borrowed')} value={r.borrowedShares.toLocaleString()} />
              {r.finishReason && <p className="muted small">{t(`lending.finish.${r.finishReason}`)}</p>}
              {r.status === 'inLoan' && (
                <div className="lending-actions">
                  <Button size="small" onClick={() => recall(r.id)} data-testid="lending-recall">
                    {t('lending.recall')}
                  </Button>
                </div>
              )}
            </div>
          ))}
        </div>
      )}
    </Page>
  );
}

// One chunk for both lending screens: the router's table (first screen) names one module.
export { MarginPage } from './margin';
