/**
 * The order ticket's preview block (./order-panel.tsx, figures from ./use-order-preview.ts): the
 * price it uses, the market value, margin, fee (with its discount as a note), tax, a day trade's
 * tax refund, the closing costs, the break-even, the total required, the available balance, the
 * maintenance ratio after the order and what remains available after it, with the insufficient
 * balance and below-the-line notices. Amounts are TWD minor units, shown with formatMinor.
 */
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { Side } from '../../../../contract/market-rules';
import { formatBps } from '../../../../contract/money';
import { RED } from '../../../lib/colors';
import { formatMinor } from '../../../lib/format';
import { LabeledValue } from '../../../ui/labeled-value';
import type { TicketPreview } from './use-order-preview';
import { ticketTestId, type OrderType } from './use-order-ticket';

/**
 * A preview line: its label's string key, its test id's suffix, the amount (TWD minor units) and
 * a note shown after it.
 */
type PreviewRow = readonly [
  labelKey: string,
  testId: string,
  minor: number | null | undefined,
  note?: string,
];

/** The cost lines of the preview, from the market value to the total required. */
function previewRows(t: TFunction, regular: boolean, pv: TicketPreview): PreviewRow[] {
  const { preview, offset, taxRefund } = pv;
  return [
    ['order.marketValue', 'value', preview?.marketValueMinor],
    ['order.margin', 'margin', preview?.marginMinor],
    // The fee is already after the level's and the coupon's discount: the discount is a note on
    // it ("1,163（已折 145）"), not a row of its own that reads as a second deduction.
    [
      'order.fee',
      'fee',
      preview ? preview.commissionMinor + preview.clearingFeeMinor : undefined,
      preview && preview.commissionDiscountMinor > 0
        ? t('order.feeDiscounted', { amount: formatMinor(preview.commissionDiscountMinor) })
        : undefined,
    ],
    ['order.tax', 'tax', preview?.openTaxMinor],
    ...(taxRefund > 0 ? [['dayTrading.taxRefund', 'tax-refund', taxRefund] as const] : []),
    [
      regular ? 'order.closeCosts' : 'dayTrading.closeCosts',
      'close-costs',
      offset ? offset.closeCommissionMinor + offset.closeClearingFeeMinor + offset.closeTaxMinor : undefined,
    ],
    ['order.breakEven', 'break-even', offset?.breakEvenPriceMinor],
    ['order.required', 'required', preview?.totalRequiredMinor],
  ];
}

/** OrderPreviewBlock's props. */
export interface OrderPreviewBlockProps {
  regular: boolean;
  orderType: OrderType;
  side: Side;
  /** The preview price, null when none. */
  price: number | null;
  pv: TicketPreview;
  loggedIn: boolean;
  /** The available balance, undefined when not known. */
  available: number | undefined;
}

/** The balance lines and notices after the cost lines: available, ratio after, available after. */
function BalanceLines({ regular, pv, loggedIn, available }: OrderPreviewBlockProps) {
  const { t } = useTranslation();
  const tid = ticketTestId(regular);
  const { preview, opening, insufficient, belowLine } = pv;
  return (
    <>
      <LabeledValue
        layout="line"
        label={t('order.available')}
        value={loggedIn ? (available !== undefined ? formatMinor(available) : '') : t('order.loginToSee')}
        testId={tid('preview-available')}
        color={insufficient ? RED : undefined}
      />
      {opening !== null && opening.usedAfterMinor > 0 && (
        <LabeledValue
          layout="line"
          label={t('order.ratioAfter', { line: formatBps(pv.openingBps!) })}
          value={formatBps(opening.ratioAfterBps)}
          testId={tid('preview-ratio-after')}
          color={belowLine ? RED : undefined}
        />
      )}
      {loggedIn && (
        <LabeledValue
          layout="line"
          label={t('order.availableAfter')}
          value={preview?.availableAfterMinor != null ? formatMinor(preview.availableAfterMinor) : ''}
          testId={tid('preview-available-after')}
          color={insufficient ? RED : undefined}
        />
      )}
      {insufficient && <div className="field-error">{t('errors.insufficientBalance')}</div>}
      {!insufficient && opening !== null && belowLine && (
        <div className="field-error" data-testid={tid('below-line')}>
          {t('order.belowLine', { amount: formatMinor(opening.shortfallMinor) })}
        </div>
      )}
    </>
  );
}

/** The preview block (see the module docstring). */
export function OrderPreviewBlock(props: OrderPreviewBlockProps) {
  const { t } = useTranslation();
  const { regular, orderType, side, price } = props;
  const tid = ticketTestId(regular);
  return (
    <div className="preview" data-testid={tid('preview')}>
      {regular && (
        <LabeledValue
          layout="line"
          label={
            orderType === 'market'
              ? t(side === 'long' ? 'order.priceAtAsk' : 'order.priceAtBid')
              : t('order.price')
          }
          value={price !== null ? formatMinor(price) : ''}
        />
      )}
      {previewRows(t, regular, props.pv).map(([key, id, minor, note]) => (
        <LabeledValue
          key={key}
          layout="line"
          label={t(key)}
          value={minor != null ? formatMinor(minor) + (note ?? '') : ''}
          testId={tid(`preview-${id}`)}
        />
      ))}
      <BalanceLines {...props} />
    </div>
  );
}
