/**
 * Cash-dividend crediting on replayed ex-dates (contract/dividends.ts; docs/tw-market-rules.md
 * "Cash dividend"; docs/adr/0036-dividends-on-the-replay.md).
 *
 * Entitlement: a position (an `orders` row that was filled) on instrument X is entitled on the
 * replayed ex-date of X at clock session `exDay` when it was open at the close before: opened
 * before the ex-day's 08:30 (`openedAt < dayStartMs`) and not closed before it
 * (`closedAt` null or ≥ dayStartMs). Wall instants, so a position opened or closed on the
 * ex-date itself is judged right whenever the crediting runs (also when a restart catches up).
 *
 * Money, per entitled position, in ONE database transaction with its `dividend_credits` row:
 *
 * | side  | ledger (TWD minor), fund-flow type `dividend`                                     |
 * |-------|-----------------------------------------------------------------------------------|
 * | long  | trading_pnl → member available: round(shares × cash)                              |
 * | short | member available → trading_pnl: the same amount; what `available` cannot cover is |
 * |       | taken from `debt` (it goes negative: owed), as a loss beyond funds is              |
 *
 * amount = dividendAmountMinor(shares, cash micros): exact integer arithmetic, half away from
 * zero to the cent (1,000 × NT$4.50002 = NT$4,500.02). A copy's dividend (copy trading) moves
 * between trading_pnl and its follow's cash instead of the member's available
 * (copy-trading/settlement.ts postCopyCashFlow). The platform's trading_pnl is the
 * counterparty of the simulated venue (it pays longs and receives from shorts, as the lender
 * of shares would). Idempotent: the credit row is inserted first and is unique per
 * (position, exDay); a second run, a concurrent run or a restart finds it and moves nothing.
 * Stock dividends are not built: the ratio column is empty in every row of the exchange data.
 */
import { and, eq, gt, gte, isNotNull, isNull, lt, or } from 'drizzle-orm';
import { dividendAmountMinor } from '../../../contract/dividends';
import { yieldToEventLoop, type Db } from '../../db/client';
import { dividendCredits, exRightsEvents, orders } from '../../db/schema';
import { postCopyCashFlow } from '../copy-trading/settlement';
import { post, type PostingInput } from '../ledger/ledger';
import { lockedAvailable } from '../trading/fills';

/** What one crediting pass did. */
export interface CreditResult {
  /** Positions credited or charged now (not counting those done before). */
  credited: number;
  /** Sum of the signed amounts moved now, TWD minor (+ to members). */
  netMinor: number;
}

/**
 * Credits every entitled position of every cash-dividend event on `exDate` for the replayed
 * ex-day `exDay` whose 08:30 is the wall instant `dayStartMs`: one query finds the entitled
 * positions of all the date's events, then each position is its own transaction (a refusal never
 * blocks the others) and its own event-loop task. Safe to repeat and to run concurrently.
 * @returns how many positions were credited now and the net amount.
 */
export async function creditExDate(
  db: Db,
  exDay: number,
  exDate: string,
  dayStartMs: number,
): Promise<CreditResult> {
  const start = new Date(dayStartMs);
  // One query for every event of the date: a query per event ran as one task of 1–2 ms per event
  // on PGlite (85 events on 2025-07-16: a 76 ms task at the session change).
  const positions = await db
    .select({
      id: orders.id,
      userId: orders.userId,
      side: orders.side,
      shares: orders.shares,
      symbol: exRightsEvents.symbol,
      micros: exRightsEvents.cashDividendMicros,
    })
    .from(exRightsEvents)
    .innerJoin(
      orders,
      and(
        eq(orders.symbol, exRightsEvents.symbol),
        isNotNull(orders.openedAt),
        lt(orders.openedAt, start),
        or(isNull(orders.closedAt), gte(orders.closedAt, start)),
      ),
    )
    .leftJoin(dividendCredits, and(eq(dividendCredits.orderId, orders.id), eq(dividendCredits.exDay, exDay)))
    .where(
      and(
        eq(exRightsEvents.exDate, exDate),
        gt(exRightsEvents.cashDividendMicros, 0),
        isNull(dividendCredits.id),
      ),
    )
    .orderBy(exRightsEvents.symbol, orders.id);
  const out: CreditResult = { credited: 0, netMinor: 0 };
  for (const p of positions) {
    const amount = dividendAmountMinor(p.shares, p.micros!);
    const signed = p.side === 'long' ? amount : -amount;
    await yieldToEventLoop(); // one task per position, not one for the date
    const done = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(dividendCredits)
        .values({
          orderId: p.id,
          userId: p.userId,
          symbol: p.symbol,
          exDate,
          exDay,
          side: p.side,
          shares: p.shares,
          cashDividendMicros: p.micros!,
          amountMinor: signed,
          ledgerTransactionId: 0,
        })
        .onConflictDoNothing()
        .returning({ id: dividendCredits.id });
      if (!row) return false;
      const walletPostings = async (): Promise<PostingInput[]> => {
        if (signed >= 0)
          return [
            { account: { platform: 'trading_pnl' }, amountMinor: -amount },
            { account: { userId: p.userId, purpose: 'available' }, amountMinor: amount },
          ];
        const fromAvailable = Math.min(Math.max(await lockedAvailable(tx, p.userId), 0), amount);
        return [
          { account: { userId: p.userId, purpose: 'available' }, amountMinor: -fromAvailable },
          { account: { userId: p.userId, purpose: 'debt' }, amountMinor: -(amount - fromAvailable) },
          { account: { platform: 'trading_pnl' }, amountMinor: amount },
        ];
      };
      const entry = {
        type: 'dividend' as const,
        refType: 'order',
        refId: p.id,
        actorUserId: p.userId,
        memo: `${p.symbol} ${exDate}`,
      };
      // A copy's dividend goes through its follow's pool, not the member's wallet.
      const txId =
        (await postCopyCashFlow(tx, p.id, signed, { platform: 'trading_pnl' }, entry)) ??
        (await post(tx, { ...entry, postings: await walletPostings() }));
      await tx
        .update(dividendCredits)
        .set({ ledgerTransactionId: txId })
        .where(eq(dividendCredits.id, row.id));
      return true;
    });
    if (done) {
      out.credited++;
      out.netMinor += signed;
    }
  }
  return out;
}
