/**
 * The order ticket's inputs (./order-panel.tsx): side, session, order type, time in force, the
 * limit price with its checks, lots and leverage (./order-price-row.tsx holds the price, lots and
 * leverage rows). Prices are TWD minor units.
 */
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Side, TimeInForce } from '../../../../contract/market-rules';
import { GREEN, RED } from '../../../lib/colors';
import { formatMinor } from '../../../lib/format';
import { Segmented } from '../../../ui/segmented';
import { LeverageRow, LotsRow, PriceRow } from './order-price-row';
import { ticketTestId, type ControlHandlers, type EntrySession, type OrderType } from './use-order-ticket';

/** OrderControls' props. */
export interface OrderControlsProps {
  regular: boolean;
  side: Side;
  afterHoursOffered: boolean;
  /** The after-hours fixed-price market takes orders now (its 14:00–14:30 window). */
  afterHoursOpen: boolean;
  session: EntrySession;
  orderType: OrderType;
  tif: TimeInForce;
  /** After hours: the fixed price (the close), null before there is one. */
  fixedMinor: number | null;
  priceText: string;
  /** The parsed limit price; null when empty or invalid. */
  limitMinor: number | null;
  /** Off the tick table: the nearest valid prices. */
  offTick: readonly number[] | null;
  /** Outside the daily limits: the limit to use instead. */
  limitFix: number | null;
  limitDownMinor: number | null;
  limitUpMinor: number | null;
  lots: number;
  leverage: number;
  leverages: readonly number[];
  on: ControlHandlers;
  usePrice: (priceMinor: number) => void;
}

/** Long or short. */
function SideRow({ regular, side, onChange }: { regular: boolean; side: Side; onChange: (v: Side) => void }) {
  const { t } = useTranslation();
  const tid = ticketTestId(regular);
  return (
    <div className="order-row">
      <span className="order-label">{t('order.side')}</span>
      <Segmented<Side>
        value={side}
        onChange={onChange}
        options={[
          { value: 'long', label: t('side.long'), testId: tid('side-long'), activeColor: RED },
          { value: 'short', label: t('side.short'), testId: tid('side-short'), activeColor: GREEN },
        ]}
      />
    </div>
  );
}

/** The session: regular or after hours (disabled outside its window unless already chosen). */
function SessionRow({
  session,
  afterHoursOpen,
  onChange,
}: {
  session: EntrySession;
  afterHoursOpen: boolean;
  onChange: (v: EntrySession) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="order-row">
      <span className="order-label">{t('order.session')}</span>
      <Segmented<EntrySession>
        value={session}
        onChange={onChange}
        options={[
          { value: 'regular', label: t('order.sessionRegular'), testId: 'order-session-regular' },
          {
            value: 'afterHours',
            label: t('order.sessionAfterHours'),
            testId: 'order-session-afterHours',
            disabled: !afterHoursOpen && session !== 'afterHours',
          },
        ]}
      />
      {!afterHoursOpen && (
        <span className="muted small" data-testid="order-afterHours-closed">
          {t('order.afterHoursClosed')}
        </span>
      )}
    </div>
  );
}

/** After hours: the fixed price (the close), in place of the order type and time in force. */
function FixedPriceRow({ fixedMinor }: { fixedMinor: number | null }) {
  const { t } = useTranslation();
  return (
    <div className="order-row">
      <span className="order-label">{t('order.price')}</span>
      <span data-testid="order-fixed-price">{fixedMinor !== null ? formatMinor(fixedMinor) : ''}</span>
      <span className="muted small">{t('order.afterHoursNote')}</span>
    </div>
  );
}

/** The order type and, on the regular ticket, the time in force with its hint. */
function TypeRows({ p }: { p: OrderControlsProps }) {
  const { t } = useTranslation();
  const tid = ticketTestId(p.regular);
  return (
    <>
      <div className="order-row">
        <span className="order-label">{t('order.type')}</span>
        <Segmented<OrderType>
          value={p.orderType}
          onChange={p.on.type}
          options={[
            { value: 'market', label: t('orderType.market'), testId: tid('type-market') },
            { value: 'limit', label: t('orderType.limit'), testId: tid('type-limit') },
          ]}
        />
      </div>
      {p.regular && (
        <div className="order-row">
          <span className="order-label">{t('order.tif')}</span>
          <Segmented<TimeInForce>
            value={p.tif}
            onChange={p.on.tif}
            options={(['ROD', 'IOC', 'FOK'] as const).map((v) => ({
              value: v,
              label: v,
              testId: `order-tif-${v}`,
            }))}
          />
          <span className="muted small" data-testid="order-tif-hint">
            {t(`order.tifHint.${p.tif}`)}
          </span>
        </div>
      )}
    </>
  );
}

/**
 * The ticket's inputs (side, session, order type, time in force, price with its checks, lots,
 * leverage). Memoized on primitive props and stable handlers, so a quote tick, which re-renders
 * the preview, leaves these a dozen buttons and the stepper alone (at 20,000 quotes/s the whole
 * ticket re-rendering cost 12 % of a throttled phone's main thread and its long frames:
 * `npm run bench:stream`). Prices are TWD minor units.
 */
export const OrderControls = memo(function OrderControls(p: OrderControlsProps) {
  const afterHours = p.session === 'afterHours';
  return (
    <>
      <SideRow regular={p.regular} side={p.side} onChange={p.on.side} />
      {p.afterHoursOffered && (
        <SessionRow session={p.session} afterHoursOpen={p.afterHoursOpen} onChange={p.on.session} />
      )}
      {afterHours ? <FixedPriceRow fixedMinor={p.fixedMinor} /> : <TypeRows p={p} />}
      {!afterHours && p.orderType === 'limit' && (
        <PriceRow
          regular={p.regular}
          priceText={p.priceText}
          limitMinor={p.limitMinor}
          offTick={p.offTick}
          limitFix={p.limitFix}
          limitDownMinor={p.limitDownMinor}
          limitUpMinor={p.limitUpMinor}
          onChange={p.on.price}
          usePrice={p.usePrice}
        />
      )}
      <LotsRow regular={p.regular} lots={p.lots} onChange={p.on.lots} />
      <LeverageRow
        regular={p.regular}
        leverage={p.leverage}
        leverages={p.leverages}
        onChange={p.on.leverage}
      />
    </>
  );
});
