/**
 * dividend/* handlers (contract/dividends.ts): the ex-dividend calendar relative to the replayed
 * day (`/common/dividend`), the dividend-stock list by yield at the replayed price
 * (`/common/dividend2`) and one stock's events with the member's credits (`/common/dividend3`).
 *
 * The calendar lists only events on replayed dates (2025-04-07 … 2025-07-18): the file's events
 * on 2025-04-01/02 and after 2025-07-18 are never replayed. `daysAway` counts replayed days from
 * today within the current cycle of the window.
 */
import { and, asc, desc, eq, gt, gte, lt, lte } from 'drizzle-orm';
import {
  dividendYieldBps,
  microsToDecimal,
  type DividendStock,
  type ExRightsEvent,
} from '../../../contract/dividends';
import type { Db } from '../../db/client';
import { dividendCredits, exRightsEvents, instruments } from '../../db/schema';
import { requireUser, type Ctx, type Handlers } from '../common/context';
import { fail } from '../common/errors';
import { pageOfList } from '../common/paging';
import type { DividendCalendar } from './runner';

type EventRow = typeof exRightsEvents.$inferSelect;

/**
 * Ex-rights events (`e`) with their instrument's English short name (`nameEn`: null when the
 * exchange publishes none or the symbol is no instrument here); callers add where/orderBy.
 */
const eventsWithNameEn = (db: Db) =>
  db
    .select({ e: exRightsEvents, nameEn: instruments.nameEn })
    .from(exRightsEvents)
    .leftJoin(instruments, eq(instruments.symbol, exRightsEvents.symbol));

function calendarOf(ctx: Ctx): DividendCalendar {
  return ctx.services.dividends.calendar;
}

/** Index of each replayed date in the window's cycle, and the cycle's first/last date. */
function replayIndex(cal: DividendCalendar): { index: Map<string, number>; first: string; last: string } {
  const n = cal.cycleDays();
  const index = new Map<string, number>();
  const today = cal.today();
  const start = today - (((today % n) + n) % n);
  for (let k = 0; k < n; k++) index.set(cal.dateOf(start + k)!, k);
  return { index, first: cal.dateOf(start)!, last: cal.dateOf(start + n - 1)! };
}

function eventDto(e: EventRow, nameEn: string | null, daysAway: number | null): ExRightsEvent {
  return {
    symbol: e.symbol,
    name: e.name,
    nameEn,
    market: e.market,
    exDate: e.exDate,
    daysAway,
    closeBeforeMinor: e.closeBeforeMinor,
    referenceMinor: e.referenceMinor,
    cashDividend: e.cashDividendMicros === null ? null : microsToDecimal(e.cashDividendMicros),
    cashDividendMicros: e.cashDividendMicros,
    stockDividendRatio: e.stockDividendRatio,
    kindZh: e.kindZh,
  };
}

/** Every cash-dividend stock with its latest event in the data, by yield at `priceOf` (cached per call). */
async function dividendStocks(db: Db, priceOf: (symbol: string) => number | null): Promise<DividendStock[]> {
  const rows = await eventsWithNameEn(db)
    .where(gt(exRightsEvents.cashDividendMicros, 0))
    .orderBy(asc(exRightsEvents.symbol), desc(exRightsEvents.exDate));
  const out: DividendStock[] = [];
  let prev = '';
  for (const { e, nameEn } of rows) {
    if (e.symbol === prev) continue;
    prev = e.symbol;
    const priceMinor = priceOf(e.symbol) ?? e.referenceMinor;
    out.push({
      symbol: e.symbol,
      name: e.name,
      nameEn,
      market: e.market,
      exDate: e.exDate,
      cashDividend: microsToDecimal(e.cashDividendMicros!),
      cashDividendMicros: e.cashDividendMicros!,
      priceMinor,
      yieldBps: dividendYieldBps(e.cashDividendMicros!, priceMinor),
    });
  }
  return out.sort((a, b) => b.yieldBps - a.yieldBps || (a.symbol < b.symbol ? -1 : 1));
}

export const dividendHandlers: Pick<Handlers, 'dividend/calendar' | 'dividend/stocks' | 'dividend/history'> =
  {
    async 'dividend/calendar'(body, ctx) {
      const cal = calendarOf(ctx);
      const todayDate = cal.dateOf(cal.today());
      if (!todayDate) return { items: [], total: 0, page: body.page, pageSize: body.pageSize, today: '' };
      const { index, first, last } = replayIndex(cal);
      const where =
        body.tab === 'upcoming'
          ? and(gte(exRightsEvents.exDate, todayDate), lte(exRightsEvents.exDate, last))
          : and(lt(exRightsEvents.exDate, todayDate), gte(exRightsEvents.exDate, first));
      const rows = await eventsWithNameEn(ctx.db)
        .where(where)
        .orderBy(
          body.tab === 'upcoming' ? asc(exRightsEvents.exDate) : desc(exRightsEvents.exDate),
          asc(exRightsEvents.symbol),
        );
      const t = index.get(todayDate)!;
      const page = pageOfList(rows, body);
      return {
        ...page,
        items: page.items.map(({ e, nameEn }) => {
          const k = index.get(e.exDate);
          return eventDto(e, nameEn, k === undefined ? null : k - t);
        }),
        today: todayDate,
      };
    },

    async 'dividend/stocks'(body, ctx) {
      const all = await dividendStocks(ctx.db, (s) => {
        const q = ctx.feed.quote(s);
        return q && q.lastMinor > 0 ? q.lastMinor : null;
      });
      return pageOfList(all, body);
    },

    async 'dividend/history'(body, ctx) {
      const user = requireUser(ctx);
      const cal = calendarOf(ctx);
      const events = await eventsWithNameEn(ctx.db)
        .where(eq(exRightsEvents.symbol, body.symbol))
        .orderBy(desc(exRightsEvents.exDate));
      const [inst] = await ctx.db
        .select({ name: instruments.name, nameEn: instruments.nameEn })
        .from(instruments)
        .where(eq(instruments.symbol, body.symbol));
      const name = events[0]?.e.name || inst?.name;
      if (!name) throw fail('productNotFound');
      const todayDate = cal.dateOf(cal.today());
      const { index } = todayDate ? replayIndex(cal) : { index: new Map<string, number>() };
      const t = todayDate ? index.get(todayDate) : undefined;
      const credits = await ctx.db
        .select()
        .from(dividendCredits)
        .where(and(eq(dividendCredits.userId, user.id), eq(dividendCredits.symbol, body.symbol)))
        .orderBy(desc(dividendCredits.id))
        .limit(200);
      return {
        symbol: body.symbol,
        name,
        nameEn: inst?.nameEn ?? null,
        events: events.map(({ e, nameEn }) => {
          const k = index.get(e.exDate);
          return eventDto(e, nameEn, k === undefined || t === undefined ? null : k - t);
        }),
        credits: credits.map((c) => ({
          id: c.id,
          orderId: c.orderId,
          symbol: c.symbol,
          exDate: c.exDate,
          side: c.side,
          shares: c.shares,
          cashDividend: microsToDecimal(c.cashDividendMicros),
          amountMinor: c.amountMinor,
          createdAt: c.createdAt.getTime(),
        })),
      };
    },
  };
