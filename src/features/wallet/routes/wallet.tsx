/**
 * /wallet/index (product-spec §2 "Home shortcuts: asset overview"): the member's net assets in
 * TWD with assets and debt (credit loans and shortfalls) beside them, and per currency by kind
 * (wallet/overview: ledger balances, positions marked to the feed, other currencies valued at the
 * operator's exchange rate, named with its source and date), the equity at each trading day's
 * close (wallet/history snapshots, klinecharts line) and realised P&L to date and by month (the
 * one definition, docs/glossary.md). On a replayed market it says the account is a practice
 * account. Every figure comes from the API.
 */
import { List, NoticeBar } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import type { CurrencyAssets } from '../../../../contract/wallet';
import { selectSession } from '../../../api/session';
import { changeColor } from '../../../lib/colors';
import { formatDateTime, formatMinor, formatSignedMinor } from '../../../lib/format';
import { LabeledValue } from '../../../ui/labeled-value';
import { Loading } from '../../../ui/loading';
import { LoginPrompt } from '../../../ui/login-prompt';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';
import { PullRefresh } from '../../../ui/pull-refresh';
import { useWalletHistoryQuery, useWalletOverviewQuery } from '../api/wallet-api';
import { EquityChart } from '../components/equity-chart';
import '../wallet.css';

/** The invite screen shares this chunk (routes/entry.ts). */
export { InvitePage } from './invite';

function CurrencyCard({ c }: { c: CurrencyAssets }) {
  const { t } = useTranslation();
  const id = c.currency.toLowerCase();
  return (
    <section className="card" data-testid={`wallet-currency-${id}`}>
      <div className="wallet-cur-head">
        <span className="wallet-cur-name">
          {t(`currencyName.${c.currency}`, { defaultValue: c.currency })} ({c.currency})
        </span>
        <span className="wallet-cur-total" data-testid={`wallet-total-${id}`}>
          {formatMinor(c.totalMinor)}
        </span>
      </div>
      <div className="uc-grid">
        <LabeledValue
          layout="figure"
          label={t('wallet.cash')}
          value={formatMinor(c.availableMinor)}
          testId={`wallet-cash-${id}`}
        />
        <LabeledValue
          layout="figure"
          label={t('wallet.frozen')}
          value={formatMinor(c.frozenMinor)}
          testId={`wallet-frozen-${id}`}
        />
        <LabeledValue
          layout="figure"
          label={t('wallet.margin')}
          value={formatMinor(c.marginMinor)}
          testId={`wallet-margin-${id}`}
        />
        <LabeledValue
          layout="figure"
          label={t('wallet.debt')}
          value={formatMinor(c.debtMinor)}
          testId={`wallet-debt-${id}`}
        />
        {c.otherAccounts.map((a) => (
          <LabeledValue
            key={a.purpose}
            layout="figure"
            label={t(`ledgerAccount.${a.purpose}`, { defaultValue: a.purpose })}
            value={formatMinor(a.balanceMinor)}
            testId={`wallet-other-${id}-${a.purpose}`}
          />
        ))}
        {c.currency === 'TWD' && (
          <LabeledValue
            layout="figure"
            label={t('wallet.unrealised')}
            value={formatSignedMinor(c.unrealisedMinor)}
            color={changeColor(c.unrealisedMinor)}
            testId={`wallet-unrealised-${id}`}
          />
        )}
        {c.currency !== 'TWD' && (
          <LabeledValue
            layout="figure"
            label={t('wallet.inTwd')}
            value={c.valueTwdMinor === null ? t('wallet.noRate') : formatMinor(c.valueTwdMinor)}
            testId={`wallet-value-${id}`}
          />
        )}
      </div>
    </section>
  );
}

function History() {
  const { t } = useTranslation();
  const { data } = useWalletHistoryQuery(undefined, { refetchOnMountOrArgChange: true });
  if (!data) return <Loading />;
  return (
    <>
      <section className="card">
        <div className="wallet-section-title">{t('wallet.equity')}</div>
        {data.equity.length ? <EquityChart points={data.equity} /> : <NoData testId="wallet-equity-empty" />}
        <div className="muted small">{t('wallet.equityNote')}</div>
      </section>
      <section className="card" data-testid="wallet-realised">
        <div className="wallet-cur-head">
          <span className="wallet-section-title">{t('wallet.realisedTotal')}</span>
          <span
            className="wallet-cur-total"
            style={{ color: changeColor(data.realisedTotalMinor) }}
            data-testid="wallet-realised-total"
          >
            {formatSignedMinor(data.realisedTotalMinor)}
          </span>
        </div>
        <div className="muted small">{t('wallet.realisedNote')}</div>
      </section>
      <List header={t('wallet.monthly')} data-testid="wallet-monthly">
        {data.months.length === 0 && <NoData testId="wallet-monthly-empty" />}
        {data.months.map((m) => (
          <List.Item
            key={m.month}
            data-testid={`wallet-month-${m.month}`}
            description={t('wallet.monthDetail', {
              closed: m.closed,
              gross: formatSignedMinor(m.grossMinor),
              costs: formatSignedMinor(m.costsMinor),
              income: formatSignedMinor(m.incomeMinor),
            })}
            extra={<span style={{ color: changeColor(m.netMinor) }}>{formatSignedMinor(m.netMinor)}</span>}
          >
            {m.month}
          </List.Item>
        ))}
      </List>
    </>
  );
}

export function WalletPage() {
  const { t } = useTranslation();
  const loggedIn = useSelector(selectSession).token !== null;
  const { data, refetch } = useWalletOverviewQuery(undefined, {
    skip: !loggedIn,
    refetchOnMountOrArgChange: true,
  });
  if (!loggedIn)
    return (
      <Page title={t('wallet.title')}>
        <LoginPrompt />
      </Page>
    );
  return (
    <Page title={t('wallet.title')}>
      {!data ? (
        <Loading />
      ) : (
        <PullRefresh onRefresh={() => refetch()}>
          {data.practice && (
            <NoticeBar color="info" wrap content={t('wallet.practice')} data-testid="wallet-practice" />
          )}
          <section className="card uc-head">
            <div className="uc-total-label">{t('wallet.total')}</div>
            <div className="uc-total" data-testid="wallet-total">
              {formatMinor(data.totalTwdMinor)}
            </div>
            <div className="uc-grid wallet-net">
              <LabeledValue
                layout="figure"
                label={t('wallet.assets')}
                value={formatMinor(data.assetsTwdMinor)}
                testId="wallet-assets"
              />
              <LabeledValue
                layout="figure"
                label={t('wallet.debtTotal')}
                value={formatMinor(data.debtTwdMinor)}
                testId="wallet-debt-total"
              />
            </div>
            <div className="wallet-head-note" data-testid="wallet-as-of">
              {t('wallet.asOf', { time: formatDateTime(data.asOf) })}
            </div>
            {data.rates.map((r) => (
              <div
                className="wallet-head-note"
                key={r.currency}
                data-testid={`wallet-rate-${r.currency.toLowerCase()}`}
              >
                {t(r.side === 'buy' ? 'wallet.rateBuy' : 'wallet.rateSell', {
                  currency: r.currency,
                  rate: (r.ratePpm / 1_000_000).toFixed(6).replace(/0+$/, '').replace(/\.$/, ''),
                  // The seeded sources name their date already ("Bank of Taiwan spot 2026-03-13").
                  source: r.source.includes(r.asOf) ? r.source : `${r.source} ${r.asOf}`,
                })}
              </div>
            ))}
            {data.unvalued.length > 0 && (
              <div className="wallet-head-note" data-testid="wallet-unvalued">
                {t('wallet.unvalued', { list: data.unvalued.join(', ') })}
              </div>
            )}
          </section>
          <section className="card" data-testid="wallet-positions">
            <div className="wallet-section-title">
              {t('wallet.positions', { count: data.positions.count })}
            </div>
            <div className="uc-grid">
              <LabeledValue
                layout="figure"
                label={t('wallet.marketValue')}
                value={formatMinor(data.positions.marketValueMinor)}
                testId="wallet-market-value"
              />
              <LabeledValue
                layout="figure"
                label={t('wallet.margin')}
                value={formatMinor(data.positions.marginMinor)}
                testId="wallet-positions-margin"
              />
              <LabeledValue
                layout="figure"
                label={t('wallet.unrealised')}
                value={formatSignedMinor(data.positions.unrealisedMinor)}
                color={changeColor(data.positions.unrealisedMinor)}
                testId="wallet-positions-unrealised"
              />
            </div>
          </section>
          {data.currencies.map((c) => (
            <CurrencyCard key={c.currency} c={c} />
          ))}
          <History />
        </PullRefresh>
      )}
    </Page>
  );
}
