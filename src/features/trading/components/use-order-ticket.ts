/**
 * The order ticket's state (./order-panel.tsx): the member's choices (side, session, order type,
 * time in force, price text, lots, leverage), what follows from them and the market clock (the
 * session in force, the effective order type, the limit price and its checks against the tick
 * table and the daily limits), the last refusal and IOC/FOK kill, and the stable change handlers
 * that the memoized controls (./order-controls.tsx) and the one-tap fixes (./order-fix.tsx) call.
 * Prices are TWD minor units (cents); lots are lots of SHARES_PER_LOT.
 */
import { useLayoutEffect, useMemo, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { quoteHasLimits, type Quote } from '../../../../contract/market';
import { PHASE_RULES } from '../../../../contract/trading-session';
import { priceRejection, type Side, type TimeInForce } from '../../../../contract/market-rules';
import { toMinor } from '../../../../contract/money';
import type { OrderFix } from '../../../../contract/trading';
import { minorToInput } from '../../../lib/format';
import type { ClockView } from '../../../live/selectors';
import type { FixActions } from './order-fix';

/** Market or limit. */
export type OrderType = 'market' | 'limit';
/** The session an order is entered for: the regular one, or after-hours fixed price. */
export type EntrySession = 'regular' | 'afterHours';

/** What OrderControls calls on a change; each clears the last refusal. Stable for a ticket. */
export interface ControlHandlers {
  side(v: Side): void;
  session(v: EntrySession): void;
  type(v: OrderType): void;
  tif(v: TimeInForce): void;
  price(text: string): void;
  lots(v: number | null): void;
  leverage(v: number): void;
}

/** A refusal by the server: its message and, when it carries one, its fix (contract/trading.ts). */
export interface Refusal {
  msg: string;
  fix: OrderFix | null;
}

/** The test id maker of a ticket: `order-…` for the regular ticket, `dt-…` in day-trade mode. */
export function ticketTestId(regular: boolean): (name: string) => string {
  return (name: string) => `${regular ? 'order' : 'dt'}-${name}`;
}

/** Parses the limit price field; null when it is not a positive amount with ≤ 2 decimals. */
export function parsePrice(text: string): number | null {
  try {
    const v = toMinor(text);
    return v > 0 ? v : null;
  } catch {
    return null;
  }
}

/** The price the preview uses: the limit price, or the side of the book a market order fills at. */
export function previewPrice(
  orderType: OrderType,
  side: Side,
  limitMinor: number | null,
  quote: Quote | undefined,
) {
  if (orderType === 'limit') return limitMinor;
  if (!quote) return null;
  const book = side === 'long' ? quote.askMinor : quote.bidMinor;
  return book > 0 ? book : quote.lastMinor > 0 ? quote.lastMinor : null;
}

/**
 * The session in force and what it decides: after hours exists on the exchange and replay clocks
 * (not the stress source); the price is the day's close, limit ROD. Until the member picks, the
 * ticket opens on the market taking orders now. A day-trade order is always entered in the
 * regular session.
 */
function ticketSession(
  regular: boolean,
  clock: ClockView | null,
  sessionChoice: EntrySession | null,
  orderTypeChoice: OrderType | null,
  tifChoice: TimeInForce,
) {
  const afterHoursOffered = regular && !!clock && clock.source !== 'stress';
  const phaseSession: EntrySession = clock?.tradingPhase === 'afterHoursEntry' ? 'afterHours' : 'regular';
  const session: EntrySession = afterHoursOffered ? (sessionChoice ?? phaseSession) : 'regular';
  const afterHours = session === 'afterHours';
  // After-hours orders are taken 14:00–14:30 only (contract/trading-session.ts PHASE_RULES):
  // outside it the choice is disabled and, if chosen before the window shut, nothing is sent.
  const afterHoursOpen = !!clock && PHASE_RULES[clock.tradingPhase].afterHoursOrders;
  const afterHoursShut = afterHours && !afterHoursOpen;
  // Until the member picks: limit in a call phase (pre-open, closing call: limit ROD only), else market.
  const callPhase = clock?.tradingPhase === 'preOpen' || clock?.tradingPhase === 'closingCall';
  const orderType: OrderType = afterHours ? 'limit' : (orderTypeChoice ?? (callPhase ? 'limit' : 'market'));
  const tif: TimeInForce = afterHours ? 'ROD' : tifChoice;
  return { afterHoursOffered, session, afterHours, afterHoursOpen, afterHoursShut, orderType, tif };
}

/**
 * The limit price's checks the ticket can make itself (contract/market-rules.ts priceRejection):
 * the rejection, the nearest valid prices when off the tick table, the limit to use instead when
 * outside the day's band (the quote's own: a 2× ETF's ±20 %; none for a foreign-index ETF or a new
 * listing's first days, contract/dated-rules.ts), as the server checks it.
 */
function usePriceChecks(afterHours: boolean, limitMinor: number | null, quote: Quote | undefined) {
  const kind = quote?.kind ?? 'stock';
  const referenceMinor = quote && quote.prevCloseMinor > 0 ? quote.prevCloseMinor : null;
  const hasLimits = quote ? quoteHasLimits(quote) : true;
  const bandUp = hasLimits && quote && quote.limitUpMinor > 0 ? quote.limitUpMinor : null;
  const bandDown = hasLimits && quote && quote.limitDownMinor > 0 ? quote.limitDownMinor : null;
  // Memoized: its fix arrays go to the memoized controls, and a quote tick changes neither input.
  const rejection = useMemo(
    () =>
      !afterHours && limitMinor !== null
        ? priceRejection(limitMinor, {
            kind,
            referenceMinor,
            hasPriceLimits: hasLimits,
            limits:
              bandUp !== null && bandDown !== null ? { upMinor: bandUp, downMinor: bandDown } : undefined,
          })
        : null,
    [afterHours, limitMinor, kind, referenceMinor, hasLimits, bandUp, bandDown],
  );
  const offTick = rejection?.rule === 'offTick' ? rejection.nearestMinor : null;
  const limitFix =
    rejection?.rule === 'aboveLimitUp'
      ? rejection.limitUpMinor
      : rejection?.rule === 'belowLimitDown'
        ? rejection.limitDownMinor
        : null;
  return { rejection, offTick, limitFix };
}

/** The state setters the handlers change. */
interface Setters {
  setSide: Dispatch<SetStateAction<Side>>;
  setSession: Dispatch<SetStateAction<EntrySession | null>>;
  setOrderType: Dispatch<SetStateAction<OrderType | null>>;
  setTif: Dispatch<SetStateAction<TimeInForce>>;
  setPriceText: Dispatch<SetStateAction<string>>;
  setLots: Dispatch<SetStateAction<number>>;
  setLeverage: Dispatch<SetStateAction<number | null>>;
  setRefusal: Dispatch<SetStateAction<Refusal | null>>;
  setKilled: Dispatch<SetStateAction<string | null>>;
}

/**
 * Stable handlers: the controls (OrderControls) re-render on a change of the order, never on a
 * quote tick. Any change of the order clears the last refusal. The latest quote is read when
 * tapped (a limit order's price prefill), so the handlers keep their identity across ticks.
 */
function useTicketHandlers(regular: boolean, afterHours: boolean, quote: Quote | undefined, s: Setters) {
  const quoteRef = useRef(quote);
  useLayoutEffect(() => {
    quoteRef.current = quote;
  });
  const { setSide, setSession, setOrderType, setTif, setPriceText, setLots, setLeverage } = s;
  const { setRefusal, setKilled } = s;
  return useMemo((): { on: ControlHandlers; act: FixActions } => {
    const changed =
      <A extends unknown[]>(f: (...a: A) => void) =>
      (...a: A) => {
        setRefusal(null);
        setKilled(null);
        f(...a);
      };
    return {
      on: {
        side: changed(setSide),
        session: changed(setSession),
        type: changed((v: OrderType) => {
          setOrderType(v);
          const last = quoteRef.current?.lastMinor ?? 0;
          if (regular && v === 'limit' && last > 0) setPriceText((text) => text || minorToInput(last));
        }),
        tif: changed(setTif),
        price: changed(setPriceText),
        // null while the field is empty: 0 lots, nothing computed or sent until it has a number.
        lots: changed((v: number | null) => setLots(v ?? 0)),
        leverage: changed(setLeverage),
      },
      act: {
        usePrice: changed((p: number) => {
          if (!afterHours) setOrderType('limit');
          setPriceText(minorToInput(p));
        }),
        useLimitRod: changed((p: number | null) => {
          setOrderType('limit');
          setTif('ROD');
          if (p !== null) setPriceText(minorToInput(p));
        }),
        useLots: changed((n: number) => setLots(n)),
      },
    };
    // The setters are React's state setters: stable.
  }, [regular, afterHours]);
}

/**
 * The order ticket's state (see the module docstring). `regular`: false in day-trade mode (no
 * session choice, no price prefill); `leverages`: the offered leverages, the first the default.
 */
export function useOrderTicket(
  regular: boolean,
  quote: Quote | undefined,
  clock: ClockView | null,
  leverages: readonly number[],
) {
  const [side, setSide] = useState<Side>('long');
  const [orderTypeChoice, setOrderType] = useState<OrderType | null>(null);
  const [tifChoice, setTif] = useState<TimeInForce>('ROD');
  const [sessionChoice, setSession] = useState<EntrySession | null>(null);
  const [lots, setLots] = useState(1);
  const [leverageChoice, setLeverage] = useState<number | null>(null);
  const leverage =
    leverageChoice !== null && leverages.includes(leverageChoice) ? leverageChoice : leverages[0]!;
  const [priceText, setPriceText] = useState('');
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [killed, setKilled] = useState<string | null>(null);
  const s = ticketSession(regular, clock, sessionChoice, orderTypeChoice, tifChoice);
  const fixedMinor = s.afterHours && quote && quote.lastMinor > 0 ? quote.lastMinor : null;
  const limitMinor = s.afterHours ? fixedMinor : s.orderType === 'limit' ? parsePrice(priceText) : null;
  const checks = usePriceChecks(s.afterHours, limitMinor, quote);
  const setters = { setSide, setSession, setOrderType, setTif, setPriceText, setLots, setLeverage };
  const { on, act } = useTicketHandlers(regular, s.afterHours, quote, { ...setters, setRefusal, setKilled });
  return {
    ...s,
    ...checks,
    side,
    lots,
    leverage,
    priceText,
    fixedMinor,
    limitMinor,
    refusal,
    setRefusal,
    killed,
    setKilled,
    on,
    act,
  };
}

/** The order ticket's state, as useOrderTicket returns it. */
export type OrderTicket = ReturnType<typeof useOrderTicket>;
