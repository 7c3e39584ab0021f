/**
 * /position/positionDetail?id=: every field of the spec's order entity (product-spec §3 "Order or
 * position": order number, name or code, type long/short, buy time and price, held quantity,
 * margin, leverage, market value, order type, status, sell time and price, profit or loss), plus
 * the fees and taxes of each leg, time in force, entry session, trade date, whether it is a day
 * trade and why it ended. A live position's market value and P&L follow the quote stream.
 *
 * The rows are one table (`rows`): a figure is added by adding one entry.
 */
import { DotLoading, List } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useSearchParams } from 'react-router-dom';
import { SHARES_PER_LOT } from '../../../../contract/market-rules';
import { useOrderDetailQuery } from '../../../api/api';
import { selectLoggedIn } from '../../../api/session';
import { changeColor } from '../../../lib/colors';
import {
  formatDateTime,
  formatMinor,
  formatMinorOrDash,
  formatSignedMinor,
  langOf,
  shortenMiddle,
} from '../../../lib/format';
import { useQuote, useQuoteStream, useWallIsMarketTime } from '../../../live/hooks';
import { instrumentName } from '../../../live/names-en';
import { LoginPrompt } from '../../../ui/login-prompt';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';
import { usePositionRiskRows } from '../../risk';
import '../position.css';
import { isLive, livePnl, marketValueMinor, useCloseReasonLabel } from '../components/order-rows';

/** One row of the detail list: label, value, optional testid. */
export interface DetailRow {
  k: string;
  v: ReactNode;
  testId?: string;
}

export function PositionDetailPage() {
  const { t, i18n } = useTranslation();
  const wallIsMarket = useWallIsMarketTime();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const valid = Number.isInteger(id) && id > 0;
  const loggedIn = useSelector(selectLoggedIn);
  const { data: o, isLoading } = useOrderDetailQuery(id, { skip: !valid || !loggedIn });
  const symbol = o?.symbol ?? '';
  useQuoteStream(o && isLive(o) ? [symbol] : []);
  const quote = useQuote(symbol);
  const reason = useCloseReasonLabel();
  const riskRows = usePositionRiskRows(o);

  if (!loggedIn)
    return (
      <Page title={t('position.detailTitle')}>
        <LoginPrompt />
      </Page>
    );
  if (isLoading)
    return (
      <Page title={t('position.detailTitle')}>
        <div className="center-fill">
          <DotLoading color="primary" />
        </div>
      </Page>
    );
  if (!o)
    return (
      <Page title={t('position.detailTitle')}>
        <NoData />
      </Page>
    );

  const live = isLive(o);
  const pnl = live ? livePnl(o, quote?.lastMinor) : o.pnlMinor;
  const fees = o.openFeeMinor + o.closeFeeMinor;
  const tax = o.openTaxMinor + o.closeTaxMinor;
  const marketValue = o.openValueMinor === null ? null : marketValueMinor(o, quote?.lastMinor);
  // Realised P&L by the one definition (docs/glossary.md), from the server (trade/orderDetail).
  const net = o.realisedMinor ?? null;
  const signed = (v: number | null, testId?: string) => (
    <span style={{ color: changeColor(v) }} data-testid={testId}>
      {v === null ? '--' : formatSignedMinor(v)}
    </span>
  );

  const rows: DetailRow[] = [
    {
      k: t('position.orderNo'),
      v: <span title={o.orderNo}>{shortenMiddle(o.orderNo)}</span>,
      testId: 'pd-order-no',
    },
    { k: t('position.instrument'), v: `${instrumentName(o, langOf(i18n.language))} (${o.symbol})` },
    { k: t('position.side'), v: t(`side.${o.side}`), testId: 'pd-side' },
    wallIsMarket
      ? { k: t('position.openTime'), v: formatDateTime(o.openedAt) }
      : { k: t('position.openDate'), v: o.openedAt !== null ? (o.tradeDate ?? '--') : '--' },
    { k: t('position.openPrice'), v: formatMinorOrDash(o.openPriceMinor), testId: 'pd-open-price' },
    { k: t('position.openValue'), v: formatMinorOrDash(o.openValueMinor), testId: 'pd-open-value' },
    {
      k: t('position.quantity'),
      v:
        o.shares % SHARES_PER_LOT === 0
          ? t('position.sharesLots', { shares: o.shares, count: o.lots })
          : t('position.sharesOnly', { shares: o.shares }),
      testId: 'pd-quantity',
    },
    { k: t('position.margin'), v: formatMinor(o.marginMinor), testId: 'pd-margin' },
    { k: t('position.leverage'), v: `${o.leverage}×`, testId: 'pd-leverage' },
    {
      k: live ? t('position.marketValueLive') : t('position.marketValue'),
      v: marketValue === null ? '--' : formatMinor(marketValue),
      testId: 'pd-market-value',
    },
    { k: t('position.orderType'), v: t(`orderType.${o.orderType}`), testId: 'pd-order-type' },
    { k: t('position.limitPrice'), v: formatMinorOrDash(o.limitPriceMinor) },
    { k: t('position.timeInForce'), v: t(`position.tif.${o.timeInForce}`), testId: 'pd-tif' },
    { k: t('position.entrySession'), v: t(`position.session.${o.entrySession}`), testId: 'pd-session' },
    { k: t('position.status'), v: t(`orderStatus.${o.status}`), testId: 'pd-status' },
    ...(wallIsMarket ? [{ k: t('position.closeTime'), v: formatDateTime(o.closedAt) }] : []),
    { k: t('position.closePrice'), v: formatMinorOrDash(o.closePriceMinor), testId: 'pd-close-price' },
    { k: t('position.closeReason'), v: reason(o.closeReason), testId: 'pd-close-reason' },
    ...riskRows,
    { k: t('position.frozen'), v: formatMinor(o.frozenMinor) },
    { k: t('position.openFee'), v: formatMinor(o.openFeeMinor), testId: 'pd-open-fee' },
    { k: t('position.closeFee'), v: formatMinor(o.closeFeeMinor), testId: 'pd-close-fee' },
    { k: t('position.openTax'), v: formatMinor(o.openTaxMinor), testId: 'pd-open-tax' },
    { k: t('position.closeTax'), v: formatMinor(o.closeTaxMinor), testId: 'pd-close-tax' },
    { k: t('position.feesTaxes'), v: formatMinor(fees + tax), testId: 'pd-fees-taxes' },
    {
      k: live ? t('position.unrealisedPnl') : t('position.pnl'),
      v: signed(pnl),
      testId: 'pd-pnl',
    },
    { k: t('position.netPnl'), v: signed(net), testId: 'pd-net' },
    { k: t('position.tradeDate'), v: o.tradeDate ?? '--', testId: 'pd-trade-date' },
    {
      k: t('position.dayTrade'),
      v: t(o.dayTrade ? 'position.yes' : 'position.no'),
      testId: 'pd-day-trade',
    },
    ...(wallIsMarket ? [{ k: t('position.createdAt'), v: formatDateTime(o.createdAt) }] : []),
  ];

  return (
    <Page title={t('position.detailTitle')}>
      <List>
        {rows.map((r) => (
          <List.Item key={r.k} extra={<span data-testid={r.testId}>{r.v}</span>}>
            {r.k}
          </List.Item>
        ))}
      </List>
    </Page>
  );
}
