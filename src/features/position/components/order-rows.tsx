/**
 * Rows of the position screen, one per tab kind: a holding (holdings and ETF tabs: live price,
 * market value and P&L, Close), a pending order (orders tab: order type, price, frozen funds, time
 * in force and entry session, Cancel — asked first when its frozen funds reach the member's
 * confirmation threshold) and a terminated order (closed or cancelled: prices, the gross P&L and
 * the realised P&L the server computes by the one definition (contract/trading.ts `realisedMinor`,
 * docs/glossary.md: net of fees and tax, with dividends and lending fees; what the member centre's
 * realised profit adds up), why it ended). A holding's P&L is marked to the live quote with
 * contract/market-rules.ts `unrealisedPnlMinor`, the server's own formula, and labelled as before
 * fees and tax. The liquidation price is the position's risk pool's (risk/summary;
 * contract/risk.ts liquidationPriceMinor: this instrument's price at which the member's own
 * positions against the wallet, or a follow's copies against that follow, fall below
 * maintenance), labelled so.
 *
 * Every row is a RowShell (head, a grid of Cells, a footer with a time and an action); a figure is
 * added to a row by adding one `<Cell>` to its grid.
 */
import { Button, Dialog } from 'antd-mobile';
import type { TFunction } from 'i18next';
import { memo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Order } from '../../../../contract/trading';
import { SHARES_PER_LOT, unrealisedPnlMinor } from '../../../../contract/market-rules';
import { notionalMinor } from '../../../../contract/money';
import { useCancelOrderMutation, useClosePositionMutation } from '../../../api/api';
import { sendTap } from '../../../api/idempotency';
import { changeColor, GREEN, RED } from '../../../lib/colors';
import {
  formatDateTime,
  formatMinor,
  formatMinorOrDash,
  formatSignedMinor,
  langOf,
  type Lang,
} from '../../../lib/format';
import { useQuote, useWallIsMarketTime } from '../../../live/hooks';
import { instrumentName } from '../../../live/names-en';
import { LiquidationPrice } from '../../risk';
import { useConfirmAbove, type ConfirmRequest } from '../../account';
import { CopyTag } from '../../../ui/copy-tag';
import { useNavigate } from 'react-router-dom';
import { useCloseCheck } from './close-check';

/** Unrealised P&L of a holding at `lastMinor`; null when not a holding or no price yet. */
export function livePnl(order: Order, lastMinor: number | undefined): number | null {
  if (
    (order.status !== 'holding' && order.status !== 'closing') ||
    order.openValueMinor === null ||
    lastMinor === undefined ||
    lastMinor <= 0
  )
    return null;
  return unrealisedPnlMinor(order.side, order.openValueMinor, lastMinor, order.shares);
}

/**
 * Market value in minor units: a live position at `lastMinor` (at cost, its open value, until a
 * quote arrives), a closed one at its close price; null for an order that never filled.
 */
export function marketValueMinor(order: Order, lastMinor: number | undefined): number | null {
  const live = order.status === 'holding' || order.status === 'closing';
  const shares = order.shares || order.lots * SHARES_PER_LOT;
  if (live)
    return lastMinor !== undefined && lastMinor > 0 ? notionalMinor(lastMinor, shares) : order.openValueMinor;
  if (order.closePriceMinor !== null) return notionalMinor(order.closePriceMinor, shares);
  return order.openValueMinor;
}

/** The live position states (a close may be waiting for a call auction: `closing`). */
export const isLive = (o: Order) => o.status === 'holding' || o.status === 'closing';

function SideTag({ side }: { side: Order['side'] }) {
  const { t } = useTranslation();
  return (
    <span className="side-tag" style={{ background: side === 'long' ? RED : GREEN }}>
      {t(`side.${side}`)}
    </span>
  );
}

/** Small tags after the name: a copy (copy trading), day trade, after-hours session. */
export function OrderTags({ order }: { order: Order }) {
  const { t } = useTranslation();
  return (
    <>
      <CopyTag orderId={order.id} />
      {order.dayTrade && (
        <span className="pos-tag" data-testid={`day-trade-tag-${order.id}`}>
          {t('position.dayTrade')}
        </span>
      )}
      {order.entrySession === 'afterHours' && (
        <span className="pos-tag">{t('position.session.afterHours')}</span>
      )}
    </>
  );
}

/**
 * "2 lots · 5×", or "4350 shares · 5×" when a corporate action left a share count that is not a
 * whole number of lots (contract/corporate-actions.ts lotsOfShares).
 */
export function sizeLabel(t: TFunction, order: Pick<Order, 'lots' | 'shares' | 'leverage'>): string {
  return order.shares % SHARES_PER_LOT === 0 || order.shares === 0
    ? t('position.lotsLev', { count: order.lots, lev: order.leverage })
    : t('position.sharesLev', { shares: order.shares, lev: order.leverage });
}

function Head({ order }: { order: Order }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="pos-head">
      <SideTag side={order.side} />
      <span className="pos-name">{instrumentName(order, langOf(i18n.language))}</span>
      <span className="muted">{order.symbol}</span>
      <OrderTags order={order} />
      <span className="muted small pos-meta" data-testid={`position-size-${order.id}`}>
        {sizeLabel(t, order)}
      </span>
    </div>
  );
}

/** One labelled figure of a row's grid. */
export function Cell({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="pos-cell">
      <div className="pos-k">{label}</div>
      <div className="pos-v" data-testid={testId}>
        {children}
      </div>
    </div>
  );
}

/** The frame every position row shares: head, a grid of cells, and a footer with a time and an action. */
function RowShell({
  order,
  onOpen,
  time,
  action,
  children,
}: {
  order: Order;
  onOpen: (id: number) => void;
  time: number | null;
  action: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const wallIsMarket = useWallIsMarketTime();
  return (
    <div
      className="pos-row"
      data-testid={`position-row-${order.id}`}
      data-status={order.status}
      onClick={() => onOpen(order.id)}
      role="button"
    >
      <Head order={order} />
      <div className="pos-grid">{children}</div>
      <div className="pos-foot">
        <span className="muted small" data-testid={`position-time-${order.id}`}>
          {wallIsMarket ? formatDateTime(time) : t('position.tradeDateOf', { date: order.tradeDate ?? '--' })}
        </span>
        {action}
      </div>
    </div>
  );
}

/** Time in force, plus the entry session when it is not the regular one: "ROD", "ROD · After-hours". */
export function useTifLabel() {
  const { t } = useTranslation();
  return (o: Order) =>
    o.entrySession === 'afterHours'
      ? `${o.timeInForce} · ${t('position.session.afterHours')}`
      : o.timeInForce;
}

/** Why an order ended, in the current language ('--' while live). */
export function useCloseReasonLabel() {
  const { t } = useTranslation();
  return (reason: string | null) =>
    reason ? t(`position.reasons.${reason}`, { defaultValue: reason }) : '--';
}

export const HoldingRow = memo(function HoldingRow({
  order,
  onOpen,
}: {
  order: Order;
  onOpen: (id: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const quote = useQuote(order.symbol);
  const [closePosition, { isLoading }] = useClosePositionMutation();
  const closeCheck = useCloseCheck();
  const navigate = useNavigate();
  const pnl = livePnl(order, quote?.lastMinor);
  const value = marketValueMinor(order, quote?.lastMinor);
  const onClose = async (e: React.MouseEvent) => {
    e.stopPropagation();
    // A refusal known now is said now, with its way out, instead of after "are you sure?".
    if ((await closeCheck(order)) === 'lendingSharesInLoan') {
      Dialog.show({
        title: t('position.closeTitle'),
        content: <span data-testid="close-refusal">{t('errors.lendingSharesInLoan')}</span>,
        closeOnAction: true,
        actions: [
          [
            { key: 'cancel', text: t('common.cancel') },
            {
              key: 'recall',
              text: t('position.toRecall'),
              bold: true,
              onClick: () => navigate('/common/lending'),
            },
          ],
        ],
      });
      return;
    }
    const ok = await Dialog.confirm({
      title: t('position.closeTitle'),
      content: t('position.closeConfirm', {
        name: instrumentName(order, langOf(i18n.language)),
        lots: order.lots,
      }),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
    });
    // One key per tap, resent on automatic retries after a lost answer: the close happens once.
    if (ok) await sendTap({ orderId: order.id }, closePosition);
  };
  return (
    <RowShell
      order={order}
      onOpen={onOpen}
      time={order.openedAt}
      action={
        order.status === 'closing' ? (
          <span className="muted small" data-testid={`position-closing-${order.id}`}>
            {t('orderStatus.closing')}
          </span>
        ) : (
          <Button
            size="small"
            color="primary"
            fill="outline"
            loading={isLoading}
            onClick={onClose}
            data-testid={`position-close-${order.id}`}
          >
            {t('position.close')}
          </Button>
        )
      }
    >
      <Cell label={t('position.openPrice')}>{formatMinorOrDash(order.openPriceMinor)}</Cell>
      <Cell label={t('position.last')}>
        <span style={{ color: quote ? changeColor(quote.lastMinor - quote.prevCloseMinor) : undefined }}>
          {quote ? formatMinor(quote.lastMinor) : '--'}
        </span>
      </Cell>
      <Cell label={t('position.marketValue')} testId={`position-value-${order.id}`}>
        {value === null ? '--' : formatMinor(value)}
      </Cell>
      <Cell label={t('position.pnl')}>
        <span style={{ color: changeColor(pnl) }} data-testid={`position-pnl-${order.id}`}>
          {pnl === null ? '--' : formatSignedMinor(pnl)}
        </span>
      </Cell>
      <Cell label={t('position.margin')}>{formatMinor(order.marginMinor)}</Cell>
      <Cell label={t('risk.liquidationPrice')} testId={`position-liq-${order.id}`}>
        <LiquidationPrice orderId={order.id} />
      </Cell>
      <Cell label={t('position.heldShares')} testId={`position-shares-${order.id}`}>
        {order.shares}
      </Cell>
    </RowShell>
  );
});

/**
 * What cancelling a pending order asks when it reaches the member's threshold
 * (features/account confirm-above.tsx): the order is valued at its frozen funds (`frozenMinor`, TWD
 * minor units: what placing it reserved, margin + fees + tax, and what the cancel gives back). The
 * instrument is named in `lang` (instrumentName).
 */
export function cancelConfirmRequest(t: TFunction, order: Order, lang: Lang = 'tw'): ConfirmRequest {
  return {
    amountMinor: order.frozenMinor,
    title: t('confirm.cancelTitle'),
    confirmText: t('position.cancel'),
    cancelText: t('confirm.keep'),
    rows: [
      {
        label: t('confirm.stock'),
        value: `${order.symbol} ${instrumentName(order, lang)}`,
        testId: 'symbol',
      },
      { label: t('order.side'), value: t(`side.${order.side}`), testId: 'side' },
      { label: t('order.lots'), value: String(order.lots), testId: 'lots' },
      { label: t('order.leverage'), value: `${order.leverage}×`, testId: 'leverage' },
      {
        label: t('confirm.price'),
        value:
          order.limitPriceMinor !== null
            ? `${formatMinor(order.limitPriceMinor)} · ${t(`orderType.${order.orderType}`)}`
            : t(`orderType.${order.orderType}`),
        testId: 'price',
      },
      { label: t('confirm.frozen'), value: formatMinor(order.frozenMinor), testId: 'frozen' },
    ],
  };
}

export const PendingRow = memo(function PendingRow({
  order,
  onOpen,
}: {
  order: Order;
  onOpen: (id: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const tif = useTifLabel();
  const [cancelOrder, { isLoading }] = useCancelOrderMutation();
  const confirmAbove = useConfirmAbove();
  const onCancel = async (e: React.MouseEvent) => {
    e.stopPropagation();
    // At or above the member's threshold (valued at the order's frozen funds), ask first.
    const confirmed = await confirmAbove(cancelConfirmRequest(t, order, langOf(i18n.language)));
    if (confirmed) await sendTap({ orderId: order.id }, cancelOrder);
  };
  return (
    <RowShell
      order={order}
      onOpen={onOpen}
      time={order.createdAt}
      action={
        <Button
          size="small"
          color="danger"
          fill="outline"
          loading={isLoading}
          onClick={(e) => void onCancel(e)}
          data-testid={`order-cancel-${order.id}`}
        >
          {t('position.cancel')}
        </Button>
      }
    >
      <Cell label={t('position.orderType')}>{t(`orderType.${order.orderType}`)}</Cell>
      <Cell label={t('position.limitPrice')}>{formatMinorOrDash(order.limitPriceMinor)}</Cell>
      <Cell label={t('position.frozen')}>{formatMinor(order.frozenMinor)}</Cell>
      <Cell label={t('position.status')}>{t(`orderStatus.${order.status}`)}</Cell>
      <Cell label={t('position.timeInForce')} testId={`order-tif-${order.id}`}>
        {tif(order)}
      </Cell>
      <Cell label={t('position.tradeDate')}>{order.tradeDate ?? '--'}</Cell>
    </RowShell>
  );
});

export const TerminatedRow = memo(function TerminatedRow({
  order,
  onOpen,
}: {
  order: Order;
  onOpen: (id: number) => void;
}) {
  const { t } = useTranslation();
  const reason = useCloseReasonLabel();
  const net = order.realisedMinor ?? null;
  return (
    <RowShell
      order={order}
      onOpen={onOpen}
      time={order.closedAt ?? order.createdAt}
      action={
        <span className="muted small">
          {t('position.sharesLots', {
            shares: order.shares || order.lots * SHARES_PER_LOT,
            count: order.lots,
          })}
        </span>
      }
    >
      <Cell label={t('position.openPrice')}>{formatMinorOrDash(order.openPriceMinor)}</Cell>
      <Cell label={t('position.closePrice')}>{formatMinorOrDash(order.closePriceMinor)}</Cell>
      <Cell label={t('position.status')}>{t(`orderStatus.${order.status}`)}</Cell>
      <Cell label={t('position.pnl')}>
        <span style={{ color: changeColor(order.pnlMinor) }} data-testid={`position-pnl-${order.id}`}>
          {order.pnlMinor === null ? '--' : formatSignedMinor(order.pnlMinor)}
        </span>
      </Cell>
      <Cell label={t('position.netPnl')}>
        <span style={{ color: changeColor(net) }} data-testid={`position-net-${order.id}`}>
          {net === null ? '--' : formatSignedMinor(net)}
        </span>
      </Cell>
      <Cell label={t('position.closeReason')} testId={`position-reason-${order.id}`}>
        {reason(order.closeReason)}
      </Cell>
    </RowShell>
  );
});
