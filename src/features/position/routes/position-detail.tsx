/** /position/positionDetail?id=: every field of the order entity. */
import { DotLoading, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useSearchParams } from 'react-router-dom';
import { notionalMinor } from '../../../../contract/money';
import { useOrderDetailQuery } from '../../../api/api';
import { selectLoggedIn } from '../../../api/session';
import { changeColor } from '../../../lib/colors';
import {
  formatDateTime,
  formatMinor,
  formatMinorOrDash,
  formatSignedMinor,
  shortenMiddle,
} from '../../../lib/format';
import { useQuote, useQuoteStream } from '../../../market/hooks';
import { LoginPrompt } from '../../../ui/login-prompt';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';
import { livePnl } from '../components/order-rows';

export function PositionDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const valid = Number.isInteger(id) && id > 0;
  const loggedIn = useSelector(selectLoggedIn);
  const { data: o, isLoading } = useOrderDetailQuery(id, { skip: !valid || !loggedIn });
  const symbol = o?.symbol ?? '';
  useQuoteStream(o?.status === 'holding' ? [symbol] : []);
  const quote = useQuote(symbol);

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

  const live = livePnl(o, quote?.lastMinor);
  const pnl = o.status === 'holding' ? live : o.pnlMinor;
  const fees = o.openFeeMinor + o.closeFeeMinor;
  const tax = o.openTaxMinor + o.closeTaxMinor;
  const markPrice =
    o.status === 'holding' ? (quote?.lastMinor ?? o.openPriceMinor) : (o.closePriceMinor ?? o.openPriceMinor);
  const marketValue =
    markPrice !== null && markPrice !== undefined ? notionalMinor(markPrice, o.shares) : null;
  const net = o.pnlMinor !== null ? o.pnlMinor - fees - tax : null;

  const rows: { k: string; v: React.ReactNode; testId?: string }[] = [
    {
      k: t('position.orderNo'),
      v: <span title={o.orderNo}>{shortenMiddle(o.orderNo)}</span>,
      testId: 'pd-order-no',
    },
    { k: t('position.instrument'), v: `${o.name} (${o.symbol})` },
    { k: t('position.side'), v: t(`side.${o.side}`) },
    { k: t('position.openTime'), v: formatDateTime(o.openedAt) },
    { k: t('position.openPrice'), v: formatMinorOrDash(o.openPriceMinor) },
    { k: t('position.quantity'), v: t('position.sharesLots', { shares: o.shares, count: o.lots }) },
    { k: t('position.margin'), v: formatMinor(o.marginMinor) },
    { k: t('position.leverage'), v: `${o.leverage}×` },
    { k: t('position.marketValue'), v: marketValue === null ? '--' : formatMinor(marketValue) },
    { k: t('position.orderType'), v: t(`orderType.${o.orderType}`) },
    { k: t('position.limitPrice'), v: formatMinorOrDash(o.limitPriceMinor) },
    { k: t('position.status'), v: t(`orderStatus.${o.status}`), testId: 'pd-status' },
    { k: t('position.closeTime'), v: formatDateTime(o.closedAt) },
    { k: t('position.closePrice'), v: formatMinorOrDash(o.closePriceMinor) },
    { k: t('position.frozen'), v: formatMinor(o.frozenMinor) },
    { k: t('position.fees'), v: formatMinor(fees) },
    { k: t('position.tax'), v: formatMinor(tax) },
    {
      k: o.status === 'holding' ? t('position.unrealisedPnl') : t('position.pnl'),
      v: <span style={{ color: changeColor(pnl) }}>{pnl === null ? '--' : formatSignedMinor(pnl)}</span>,
      testId: 'pd-pnl',
    },
    {
      k: t('position.netPnl'),
      v: <span style={{ color: changeColor(net) }}>{net === null ? '--' : formatSignedMinor(net)}</span>,
    },
    { k: t('position.createdAt'), v: formatDateTime(o.createdAt) },
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
