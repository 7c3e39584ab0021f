/**
 * The order ticket's live preview (./order-panel.tsx): contract/market-rules.ts `orderPreview`
 * (built on `openCosts`/`closeResult`, the functions the server charges with) for the order now
 * and, in day-trade mode, with `dayTradeOn` for its offset today; and the whole account after
 * the order as order entry judges it (contract/risk.ts `openingCheck`). Amounts are TWD minor
 * units (cents).
 */
import { useMemo } from 'react';
import { quoteTaxKind, type Quote } from '../../../../contract/market';
import { taipeiIsoDate } from '../../../../contract/trading-session';
import {
  orderPreview,
  type FeeDiscount,
  type OrderPreview,
  type Side,
} from '../../../../contract/market-rules';
import { isCashHolding, openingCheck } from '../../../../contract/risk';
import { useLiveRisk } from '../../risk';

const NO_PREVIEW = { preview: null, dayTradePreview: null } as const;

/** What the preview is computed from; `price` null, or `valid` false, means no preview. */
export interface PreviewInput {
  /** The preview price (previewPrice), null when there is none. */
  price: number | null;
  lots: number;
  leverage: number;
  side: Side;
  quote: Quote | undefined;
  /** The lots are a whole number in range and the price passes the ticket's own checks. */
  valid: boolean;
  /** The available balance (TWD minor units), undefined when not known. */
  available: number | undefined;
  /** Day-trade mode's trade date (YYYY-MM-DD), else undefined. */
  tradeDate: string | undefined;
  /** The level's discount and the chosen coupon (rewards/fee-discount.tsx). */
  discount: FeeDiscount;
  loggedIn: boolean;
}

/**
 * What the order costs now (the opening trade is charged as usual) and, with `tradeDate`, what
 * its offset today costs (the closing leg at the day-trade rate; a short's opening sale refunded
 * down to that rate when offset the same day). Null previews when there is nothing to compute
 * or the computation refuses the input.
 */
function usePreviews(p: PreviewInput) {
  const { price, lots, leverage, side, quote, valid, available, tradeDate, discount } = p;
  const kind = quote?.kind ?? 'stock';
  // The sale's tax row is the one in force on the quote's day (a bond ETF's suspension ends
  // 2026-12-31): the replayed date, else the date of the quote's market time.
  const taxKind = quote ? quoteTaxKind(quote) : kind;
  const saleDate = quote ? (quote.replayDate ?? taipeiIsoDate(quote.ts)) : undefined;
  return useMemo((): { preview: OrderPreview | null; dayTradePreview: OrderPreview | null } => {
    if (price === null || !valid) return NO_PREVIEW;
    try {
      const sale = saleDate !== undefined ? { taxKind, date: saleDate } : undefined;
      const args = {
        priceMinor: price,
        lots,
        leverage,
        side,
        kind,
        availableMinor: available,
        discount,
        sale,
      };
      return {
        preview: orderPreview(args),
        dayTradePreview: tradeDate !== undefined ? orderPreview({ ...args, dayTradeOn: tradeDate }) : null,
      };
    } catch {
      return NO_PREVIEW;
    }
  }, [price, lots, leverage, side, kind, valid, available, tradeDate, discount, taxKind, saleDate]);
}

/**
 * The ticket's preview (see the module docstring): `preview` (null when none), `offset` (the
 * closing figures, at the day-trade rate in day-trade mode), `taxRefund` (a short's day-trade
 * tax refund, else 0), `opening` (the account after the order, null when not known),
 * `openingBps` (the opening line), `belowLine` and `insufficient` (the balance would go negative).
 */
export function useOrderPreview(p: PreviewInput) {
  const { preview, dayTradePreview } = usePreviews(p);
  const { side, leverage } = p;
  const offset = dayTradePreview ?? preview;
  const taxRefund = preview && dayTradePreview ? preview.openTaxMinor - dayTradePreview.openTaxMinor : 0;
  // The whole account after this order and its resting orders, as order entry judges it
  // (contract/risk.ts openingCheck, the server's OPENING_MARGIN_BPS): the server refuses an order
  // that leaves it below the line, so the ticket says so before it is sent.
  const live = useLiveRisk({ skip: !p.loggedIn });
  const opening = useMemo(() => {
    if (!preview || !live) return null;
    const s = live.summary;
    return openingCheck(
      {
        availableMinor: s.availableMinor,
        debtMinor: s.debtMinor,
        usedMarginMinor: live.risk.usedMarginMinor,
        unrealisedPnlMinor: live.risk.unrealisedPnlMinor,
        restingMarginMinor: s.restingMarginMinor,
      },
      {
        cash: isCashHolding({ side, leverage }),
        marginMinor: preview.marginMinor,
        feeMinor: preview.totalRequiredMinor - preview.marginMinor - preview.openTaxMinor,
        taxMinor: preview.openTaxMinor,
      },
      s.openingBps,
    );
  }, [preview, live, side, leverage]);
  const belowLine = opening !== null && !opening.ok;
  const insufficient =
    preview !== null && preview.availableAfterMinor !== null && preview.availableAfterMinor < 0;
  const openingBps = live?.summary.openingBps ?? null;
  return { preview, offset, taxRefund, opening, openingBps, belowLine, insufficient };
}

/** The ticket's preview, as useOrderPreview returns it. */
export type TicketPreview = ReturnType<typeof useOrderPreview>;
