/**
 * Rows of the position screen. A holding's P&L is marked to the live quote with
 * contract/market-rules.ts `unrealisedPnlMinor`, the server's own formula.
 */
import { Button, Dialog } from 'antd-mobile';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Order } from '../../../../contract/trading';
import { SHARES_PER_LOT, unrealisedPnlMinor } from '../../../../contract/market-rules';
import { useCancelOrderMutation, useClosePositionMutation } from '../../../api/api';
import { changeColor, GREEN, RED } from '../../../lib/colors';
import { formatDateTime, formatMinor, formatMinorOrDash, formatSignedMinor } from '../../../lib/format';
import { useQuote } from '../../../market/hooks';

export function livePnl(order: Order, lastMinor: number | undefined): number | null {
  if (
    order.status !== 'holding' ||
    order.openPriceMinor === null ||
    lastMinor === undefined ||
    lastMinor <= 0
  )
    return null;
  return unrealisedPnlMinor(order.side, order.openPriceMinor, lastMinor, order.shares);
}

function SideTag({ side }: { side: Order['side'] }) {
  const { t } = useTranslation();
  return (
    <span className="side-tag" style={{ background: side === 'long' ? RED : GREEN }}>
      {t(`side.${side}`)}
    </span>
  );
}

function Head({ order }: { order: Order }) {
  const { t } = useTranslation();
  return (
    <div className="pos-head">
      <SideTag side={order.side} />
      <span className="pos-name">{order.name}</span>
      <span className="muted">{order.symbol}</span>
      <span className="muted small pos-meta">
        {t('position.lotsLev', { count: order.lots, lev: order.leverage })}
      </span>
    </div>
  );
}

function Cell({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
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
  action: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <div
      className="pos-row"
      data-testid={`position-row-${order.id}`}
      onClick={() => onOpen(order.id)}
      role="button"
    >
      <Head order={order} />
      <div className="pos-grid">{children}</div>
      <div className="pos-foot">
        <span className="muted small">{formatDateTime(time)}</span>
        {action}
      </div>
    </div>
  );
}

export const HoldingRow = memo(function HoldingRow({
  order,
  onOpen,
}: {
  order: Order;
  onOpen: (id: number) => void;
}) {
  const { t } = useTranslation();
  const quote = useQuote(order.symbol);
  const [closePosition, { isLoading }] = useClosePositionMutation();
  const pnl = livePnl(order, quote?.lastMinor);
  const onClose = async (e: React.MouseEvent) => {
    e.stopPropagation();
    const ok = await Dialog.confirm({
      title: t('position.closeTitle'),
      content: t('position.closeConfirm', { name: order.name, lots: order.lots }),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
    });
    if (ok) await closePosition({ orderId: order.id });
  };
  return (
    <RowShell
      order={order}
      onOpen={onOpen}
      time={order.openedAt}
      action={
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
      }
    >
      <Cell label={t('position.openPrice')}>{formatMinorOrDash(order.openPriceMinor)}</Cell>
      <Cell label={t('position.last')}>
        <span style={{ color: quote ? changeColor(quote.lastMinor - quote.prevCloseMinor) : undefined }}>
          {quote ? formatMinor(quote.lastMinor) : '--'}
        </span>
      </Cell>
      <Cell label={t('position.margin')}>{formatMinor(order.marginMinor)}</Cell>
      <Cell label={t('position.pnl')}>
        <span style={{ color: changeColor(pnl) }} data-testid={`position-pnl-${order.id}`}>
          {pnl === null ? '--' : formatSignedMinor(pnl)}
        </span>
      </Cell>
    </RowShell>
  );
});

export const PendingRow = memo(function PendingRow({
  order,
  onOpen,
}: {
  order: Order;
  onOpen: (id: number) => void;
}) {
  const { t } = useTranslation();
  const [cancelOrder, { isLoading }] = useCancelOrderMutation();
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
          onClick={(e) => {
            e.stopPropagation();
            void cancelOrder({ orderId: order.id });
          }}
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
    </RowShell>
  );
});
