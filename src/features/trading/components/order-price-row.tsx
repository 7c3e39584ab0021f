/**
 * The order ticket's price, lots and leverage rows (./order-controls.tsx): the limit price field
 * with the checks the ticket can make itself (tick table, daily limits) and their one-tap fixes
 * (./order-fix.tsx), the lots stepper with the share count, the leverage choice. Prices are TWD
 * minor units; lots are lots of SHARES_PER_LOT.
 */
import { useTranslation } from 'react-i18next';
import { MAX_LOTS_PER_ORDER, SHARES_PER_LOT } from '../../../../contract/market-rules';
import { formatMinor } from '../../../lib/format';
import { Segmented } from '../../../ui/segmented';
import { TestIdInput } from '../../../ui/testid-input';
import { LotsField } from './lots-field';
import { PriceFixButton } from './order-fix';
import { ticketTestId } from './use-order-ticket';

/** PriceRow's props. */
export interface PriceRowProps {
  regular: boolean;
  priceText: string;
  /** The parsed limit price; null when empty or invalid. */
  limitMinor: number | null;
  /** Off the tick table: the nearest valid prices. */
  offTick: readonly number[] | null;
  /** Outside the daily limits: the limit to use instead. */
  limitFix: number | null;
  limitDownMinor: number | null;
  limitUpMinor: number | null;
  onChange: (text: string) => void;
  usePrice: (priceMinor: number) => void;
}

/** The limit price field, its format error and, off the tick table or the limits, the fix. */
export function PriceRow(p: PriceRowProps) {
  const { t } = useTranslation();
  const tid = ticketTestId(p.regular);
  const { offTick, limitFix, limitDownMinor, limitUpMinor, usePrice } = p;
  return (
    <div className={p.regular ? 'order-row order-price-row' : 'order-row'}>
      <span className="order-label">{t('order.price')}</span>
      <div className="order-price">
        <TestIdInput
          testId={tid('price')}
          value={p.priceText}
          onChange={p.onChange}
          inputMode="decimal"
          placeholder={t('order.pricePlaceholder')}
          clearable={p.regular}
        />
        {p.priceText !== '' && p.limitMinor === null && (
          <div className="field-error">{t('order.priceInvalid')}</div>
        )}
        {offTick && (
          <div className="field-error" data-testid={tid('price-offtick')}>
            {t('order.offTick')}
            {offTick.map((price) => (
              <PriceFixButton key={price} priceMinor={price} onUse={usePrice} />
            ))}
          </div>
        )}
        {limitFix !== null && limitDownMinor !== null && limitUpMinor !== null && (
          <div className="field-error" data-testid={tid('price-limits')}>
            {t('order.outOfLimits', {
              down: formatMinor(limitDownMinor),
              up: formatMinor(limitUpMinor),
            })}
            <PriceFixButton priceMinor={limitFix} onUse={usePrice} />
          </div>
        )}
      </div>
    </div>
  );
}

/** The lots stepper (1..MAX_LOTS_PER_ORDER; null while empty) and the share count. */
export function LotsRow({
  regular,
  lots,
  onChange,
}: {
  regular: boolean;
  lots: number;
  onChange: (v: number | null) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="order-row">
      <span className="order-label">{t('order.lots')}</span>
      <LotsField
        testId={ticketTestId(regular)('lots')}
        ariaLabel={t('order.lots')}
        value={lots}
        min={1}
        max={MAX_LOTS_PER_ORDER}
        onChange={onChange}
      />
      <span className="muted small">{t('order.shares', { n: lots * SHARES_PER_LOT })}</span>
    </div>
  );
}

/** The leverage choice among the offered leverages (`leverage-N`, `dt-leverage-N`). */
export function LeverageRow({
  regular,
  leverage,
  leverages,
  onChange,
}: {
  regular: boolean;
  leverage: number;
  leverages: readonly number[];
  onChange: (v: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="order-row">
      <span className="order-label">{t('order.leverage')}</span>
      <Segmented<number>
        value={leverage}
        onChange={onChange}
        options={leverages.map((n) => ({
          value: n,
          label: `${n}×`,
          testId: `${regular ? '' : 'dt-'}leverage-${n}`,
        }))}
      />
    </div>
  );
}
