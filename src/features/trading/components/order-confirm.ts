/**
 * What the order ticket (./order-panel.tsx) asks the member to confirm when an order reaches
 * their threshold (features/account confirm-above.tsx): the order is valued at the preview's total
 * required (contract/market-rules.ts orderPreview `totalRequiredMinor`: margin + opening fees +
 * opening tax, TWD minor units), and the dialog names the stock, side, lots, leverage, the price
 * (a market order's at the book side the preview used), the notional and the total required.
 */
import type { TFunction } from 'i18next';
import type { OrderPreview, Side } from '../../../../contract/market-rules';
import type { ConfirmRequest } from '../../account';
import { formatMinor } from '../../../lib/format';

/** The order as the ticket will send it, with its preview. Prices are TWD minor units. */
export interface OrderToConfirm {
  symbol: string;
  /** The instrument's name ('' when the quote has none yet). */
  name: string;
  side: Side;
  orderType: 'market' | 'limit';
  /** The after-hours fixed-price session (its price is the day's close). */
  afterHours: boolean;
  /** The limit (or fixed) price, or a market order's estimated price. */
  priceMinor: number;
  lots: number;
  leverage: number;
  preview: OrderPreview;
  /** The ticket's submit label ("Buy long"), used on the confirm button. */
  submitLabel: string;
}

/** The confirmation request of an order (see the module docstring). */
export function orderConfirmRequest(t: TFunction, o: OrderToConfirm): ConfirmRequest {
  const price = formatMinor(o.priceMinor);
  return {
    amountMinor: o.preview.totalRequiredMinor,
    title: t('confirm.orderTitle'),
    confirmText: o.submitLabel,
    rows: [
      { label: t('confirm.stock'), value: o.name ? `${o.symbol} ${o.name}` : o.symbol, testId: 'symbol' },
      { label: t('order.side'), value: t(`side.${o.side}`), testId: 'side' },
      { label: t('order.lots'), value: String(o.lots), testId: 'lots' },
      { label: t('order.leverage'), value: `${o.leverage}×`, testId: 'leverage' },
      {
        label: t('confirm.price'),
        value: o.afterHours
          ? `${price} · ${t('order.sessionAfterHours')}`
          : o.orderType === 'market'
            ? t('confirm.priceMarket', { price })
            : `${price} · ${t('orderType.limit')}`,
        testId: 'price',
      },
      { label: t('confirm.notional'), value: formatMinor(o.preview.marketValueMinor), testId: 'notional' },
      { label: t('confirm.required'), value: formatMinor(o.preview.totalRequiredMinor), testId: 'required' },
    ],
  };
}
