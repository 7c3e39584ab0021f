/**
 * Risk events (table `risk_events`): the margin-call notice, its clearing, and one record per
 * position closed by a forced liquidation with why (the account ratio, the threshold, the mark
 * that triggered it and the closing price). Figures that have no column of their own (threshold,
 * mark, equity, used margin, symbol) are kept as JSON in `detail`.
 *
 * Units: minor units, basis points; `createdAt`/`readAt` epoch ms in the DTO.
 */
import { and, count, desc, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import type { RiskEvent, RiskEventKind } from '../../../contract/risk-api';
import type { Db, Tx } from '../../db/client';
import { riskEvents } from '../../db/schema';
import { pageOf } from '../common/paging';

/** What `detail` holds (all optional: a call has no mark or price). */
export interface RiskEventDetail {
  symbol?: string;
  thresholdBps?: number;
  markMinor?: number;
  equityMinor?: number;
  usedMarginMinor?: number;
  /** A copy liquidated in its follow's pool: the follow (equity and used margin are the pool's). */
  followId?: number;
  /** marginCall: the trading session it was raised in, and the first one of forced sales. */
  calledSession?: number;
  saleSession?: number;
  /** marginCall: the trading date of `saleSession` (null when the clock has no dates). */
  saleDate?: string | null;
  /** marginCall (and a sale's notice): the positions in the order they would be sold. */
  saleOrder?: Array<{ orderId: number; symbol: string }>;
  /**
   * marginCall: raised by a fall straight below maintenance (sold at once: the notice says so);
   * liquidation: why it was sold: below maintenance, or a call unmet by its deadline.
   */
  immediate?: boolean;
  cause?: 'maintenance' | 'deadline';
}

/** An open margin call: its event id and sessions (events.ts RiskEventDetail). */
export interface OpenMarginCall {
  id: number;
  calledSession: number | null;
  saleSession: number | null;
  /** The trading date of `saleSession` (null: unknown) and the symbols in their order of sale. */
  saleDate: string | null;
  saleOrder: string[];
}

/** A risk event to record. */
export interface NewRiskEvent {
  userId: number;
  kind: RiskEventKind;
  orderId?: number | null;
  ratioBps: number | null;
  priceMinor?: number | null;
  detail: RiskEventDetail;
}

/** Inserts one event (inside the caller's transaction when given one); returns its id. */
export async function recordRiskEvent(db: Db | Tx, e: NewRiskEvent): Promise<number> {
  const [row] = await db
    .insert(riskEvents)
    .values({
      userId: e.userId,
      kind: e.kind,
      orderId: e.orderId ?? null,
      ratioBps: e.ratioBps,
      priceMinor: e.priceMinor ?? null,
      detail: JSON.stringify(e.detail),
    })
    .returning({ id: riskEvents.id });
  return row!.id;
}

/** The member's open margin call (latest call event a `marginCall`), or null. */
export async function openMarginCall(db: Db | Tx, userId: number): Promise<OpenMarginCall | null> {
  const last = await latestCallEvent(db, userId, ['marginCall', 'marginCallCleared']);
  return last?.kind === 'marginCall' ? toOpenCall(last) : null;
}

/** The member's latest margin call, open or since cleared, or null. */
export async function lastMarginCall(db: Db | Tx, userId: number): Promise<OpenMarginCall | null> {
  const last = await latestCallEvent(db, userId, ['marginCall']);
  return last ? toOpenCall(last) : null;
}

async function latestCallEvent(db: Db | Tx, userId: number, kinds: RiskEventKind[]) {
  const [last] = await db
    .select({ id: riskEvents.id, kind: riskEvents.kind, detail: riskEvents.detail })
    .from(riskEvents)
    .where(and(eq(riskEvents.userId, userId), inArray(riskEvents.kind, kinds)))
    .orderBy(desc(riskEvents.id))
    .limit(1);
  return last;
}

function toOpenCall(last: { id: number; detail: string | null }): OpenMarginCall {
  const d = parseDetail(last.detail);
  return {
    id: last.id,
    calledSession: intOrNull(d.calledSession),
    saleSession: intOrNull(d.saleSession),
    saleDate: typeof d.saleDate === 'string' ? d.saleDate : null,
    saleOrder: Array.isArray(d.saleOrder) ? d.saleOrder.map((x) => String(x.symbol)) : [],
  };
}

/** Id of the member's newest event, null without any. */
export async function lastEventId(db: Db | Tx, userId: number): Promise<number | null> {
  const [r] = await db
    .select({ id: riskEvents.id })
    .from(riskEvents)
    .where(eq(riskEvents.userId, userId))
    .orderBy(desc(riskEvents.id))
    .limit(1);
  return r?.id ?? null;
}

/** Number of the member's unread events. */
export async function unreadCount(db: Db | Tx, userId: number): Promise<number> {
  const [r] = await db
    .select({ n: count() })
    .from(riskEvents)
    .where(and(eq(riskEvents.userId, userId), isNull(riskEvents.readAt)));
  return r!.n;
}

function parseDetail(text: string | null): RiskEventDetail {
  if (!text) return {};
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' ? (v as RiskEventDetail) : {};
  } catch {
    return {};
  }
}

const intOrNull = (v: unknown): number | null => (Number.isSafeInteger(v) ? (v as number) : null);

/** A risk_events row as the API returns it (contract/risk-api.ts riskEventSchema). */
export function toRiskEventDto(row: typeof riskEvents.$inferSelect): RiskEvent {
  const d = parseDetail(row.detail);
  return {
    id: row.id,
    kind: row.kind as RiskEventKind,
    orderId: row.orderId,
    symbol: typeof d.symbol === 'string' ? d.symbol : null,
    ratioBps: row.ratioBps,
    thresholdBps: intOrNull(d.thresholdBps),
    priceMinor: row.priceMinor,
    markMinor: intOrNull(d.markMinor),
    equityMinor: intOrNull(d.equityMinor),
    usedMarginMinor: intOrNull(d.usedMarginMinor),
    saleDate: typeof d.saleDate === 'string' ? d.saleDate : null,
    saleOrder: Array.isArray(d.saleOrder) ? d.saleOrder.map((x) => String(x.symbol)) : [],
    immediate: d.immediate === true,
    cause: d.cause === 'deadline' || d.cause === 'maintenance' ? d.cause : null,
    createdAt: row.createdAt.getTime(),
    readAt: row.readAt ? row.readAt.getTime() : null,
  };
}

/** One page of the member's events, newest first, optionally for one order or unread only. */
export async function listRiskEvents(
  db: Db,
  userId: number,
  q: { page: number; pageSize: number; orderId?: number; unreadOnly?: boolean },
) {
  const conds: SQL[] = [eq(riskEvents.userId, userId)];
  if (q.orderId !== undefined) conds.push(eq(riskEvents.orderId, q.orderId));
  if (q.unreadOnly) conds.push(isNull(riskEvents.readAt));
  const where = and(...conds);
  const rows = db.select().from(riskEvents).where(where).orderBy(desc(riskEvents.id));
  const page = await pageOf(db, rows, { table: riskEvents, where }, q);
  return {
    ...page,
    items: page.items.map(toRiskEventDto),
    unread: await unreadCount(db, userId),
  };
}

/** Marks the member's events read (the given ids, or every unread one); returns the unread count. */
export async function markRiskEventsRead(
  db: Db,
  userId: number,
  eventIds: number[] | undefined,
  at: Date,
): Promise<number> {
  const conds: SQL[] = [eq(riskEvents.userId, userId), isNull(riskEvents.readAt)];
  if (eventIds !== undefined) {
    if (eventIds.length === 0) return unreadCount(db, userId);
    conds.push(inArray(riskEvents.id, eventIds));
  }
  await db
    .update(riskEvents)
    .set({ readAt: at })
    .where(and(...conds));
  return unreadCount(db, userId);
}
