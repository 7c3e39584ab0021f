/**
 * Public subscriptions on the market clock's business days (docs/adr/0004-ipo-offers-on-the-replay.md).
 *
 * A business day is a market-clock session number (server/market/clock.ts `session`: replay day k
 * counted from the anchor 2026-01-01, or, on the exchange clock, trading days since that date);
 * the app labels day k with the date it replays, `window.dateOf(k)` (server/market/window.ts).
 *
 * Seasoned offerings (the stock trades in the replay) keep the real announcements' order but not
 * their spacing: the distinct real first apply dates, ascending, open on consecutive business
 * days (the n-th distinct date on day n of a round; announcements that opened the same real day
 * open the same day here), so at any moment some are open (apply days 1–3), some upcoming and
 * some ended. The schedule repeats every `period` days (the number of distinct dates: round r adds
 * r × period), like the replay itself. Each is priced from the replayed close before its first
 * apply day (pricing.ts seasonedPrice). The listing day is LISTING_AFTER_DRAW_DAYS business days
 * after the draw (the source has none).
 *
 * A code the replay never trades lists on a comparable's path (server/market/listing-proxies.ts):
 * its listing day is the replayed session of the comparable's first day in each pass of the
 * window (`cycle` sessions), its first apply day the same 9 business days before, its price the
 * announcement's. A code with neither (not loaded, no comparable) is not placed.
 *
 * Only rounds whose first apply day lies within SCHEDULE_HORIZON_DAYS of today are created
 * (idempotent: one row per announcement and round, ipo_offerings_source_round_uq). The steps:
 * apply days 1–3, deduction day 4, draw day 5, refund day 6 (contract/ipo.ts IPO_STEP_OFFSETS).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import {
  IPO_DEFAULT_SHARES_PER_APPLICATION,
  IPO_STEP_OFFSETS,
  drawCommitment,
  ipoUnits,
} from '../../../contract/ipo';
import { yieldToEventLoop, type Db, type Tx } from '../../db/client';
import type { IpoAnnouncement } from '../../market/import';
import { ipoDraws, ipoOfferings } from '../../db/schema';
import { listingPrice, seasonedPrice, type ReplayPrice } from './pricing';

/** Business days from the draw to the listing day when the announcement gives none. */
export const LISTING_AFTER_DRAW_DAYS = 5;
/** Seeded rounds are created when their first apply day is within this many days of today. */
export const SCHEDULE_HORIZON_DAYS = 40;

/** What an offering is created with (seeded or one-off). */
export interface NewOffering {
  source: string;
  round?: number;
  symbol: string;
  name: string;
  marketType: string;
  priceMinor: number;
  sharesOffered: number;
  sharesPerApplication: number;
  /** First apply day (business-day number). */
  applyStartDay: number;
  /** Listing day; default draw day + LISTING_AFTER_DRAW_DAYS. */
  listingDay?: number;
  realApplyStart: string;
  realDrawDate: string;
}

/** A seeded offering: priced on the replay (pricing.ts). */
type SeededOffering = NewOffering & ReplayPrice;

/**
 * Creates an offering and its published draw row with a fresh 32-byte seed and its commitment
 * sha256(seed) (idempotent on (source, round): an existing one is left as it is). Returns the id
 * of the new or existing offering.
 */
export async function createOffering(db: Db | Tx, o: NewOffering | SeededOffering): Promise<number> {
  const seed = randomBytes(32).toString('hex');
  const listingDay = o.listingDay ?? o.applyStartDay + IPO_STEP_OFFSETS.draw + LISTING_AFTER_DRAW_DAYS;
  const [row] = await db
    .insert(ipoOfferings)
    .values({ ...o, round: o.round ?? 0, listingDay, seed })
    .onConflictDoNothing()
    .returning({ id: ipoOfferings.id });
  if (!row) {
    const [have] = await db
      .select({ id: ipoOfferings.id })
      .from(ipoOfferings)
      .where(sql`${ipoOfferings.source} = ${o.source} and ${ipoOfferings.round} = ${o.round ?? 0}`);
    return have!.id;
  }
  await db
    .insert(ipoDraws)
    .values({
      offeringId: row.id,
      commitment: await drawCommitment(seed),
      units: ipoUnits(o.sharesOffered, o.sharesPerApplication),
    })
    .onConflictDoNothing();
  return row.id;
}

/** The seeded schedule: each announcement's first apply day in round 0, and the repeat period. */
export interface SeedSchedule {
  items: Array<{ a: IpoAnnouncement; startDay: number }>;
  period: number;
}

/**
 * Places the announcements on business days (see the module docstring): only the seasoned ones
 * (`seasoned`: the code trades in the replay) take the consecutive days, so one opens every day;
 * any other is placed by its comparable's listing, or not at all (its startDay is unused).
 */
export function seedSchedule(
  announcements: readonly IpoAnnouncement[],
  seasoned: (code: string) => boolean = () => true,
): SeedSchedule {
  const usable = announcements.filter(
    (a) => a.sharesOffered >= (a.sharesPerApplication ?? IPO_DEFAULT_SHARES_PER_APPLICATION),
  );
  const dates = [...new Set(usable.filter((a) => seasoned(a.code)).map((a) => a.applyStart))].sort();
  const rank = new Map(dates.map((d, i) => [d, i]));
  return {
    items: usable.map((a) => ({ a, startDay: rank.get(a.applyStart) ?? 0 })),
    period: Math.max(1, dates.length),
  };
}

/** What placing offerings needs from the replay (the feed and the window) and the real closes. */
export interface ReplayPlacement {
  /** The replayed close before clock session `session` (feed closeBefore), null when never traded. */
  closeBefore(symbol: string, session: number): { closeMinor: number; session: number } | null;
  /** The comparable path of a code the window never trades (feed listingProxy), else null. */
  listingProxy(symbol: string): { firstIndex: number } | null;
  /** Replayed sessions in one pass of the window (73). */
  cycle: number;
  /** The real close before the announcement's subscription, null when the data lack it. */
  announcedClose(a: IpoAnnouncement): { closeMinor: number; closeDate: string } | null;
}

/** Business days from an offering's first apply day to its listing day. */
export const APPLY_TO_LISTING_DAYS = IPO_STEP_OFFSETS.draw + LISTING_AFTER_DRAW_DAYS;

const seeded = (a: IpoAnnouncement, round: number, applyStartDay: number): NewOffering => ({
  source: `twse:${a.code}:${a.applyStart}`,
  round,
  symbol: a.code,
  name: a.name,
  marketType: a.marketType,
  priceMinor: a.priceMinor,
  sharesOffered: a.sharesOffered,
  sharesPerApplication: a.sharesPerApplication ?? IPO_DEFAULT_SHARES_PER_APPLICATION,
  applyStartDay,
  realApplyStart: a.applyStart,
  realDrawDate: a.drawDate,
});

/**
 * The seeded offerings of every round whose first apply day is within SCHEDULE_HORIZON_DAYS of
 * `today`, priced on the replay (module docstring). Pure but for `place`.
 */
export function seededOfferings(
  schedule: SeedSchedule,
  today: number,
  place: ReplayPlacement,
): SeededOffering[] {
  const out: SeededOffering[] = [];
  const near = (day: number) => Math.abs(day - today) <= SCHEDULE_HORIZON_DAYS;
  const listed = new Set<string>();
  for (const { a, startDay } of schedule.items) {
    const proxy = place.listingProxy(a.code);
    if (proxy) {
      // One listing per code (a code announced twice lists once a pass).
      if (listed.has(a.code)) continue;
      listed.add(a.code);
      const n = place.cycle;
      const first = proxy.firstIndex - 1; // session ≡ first (mod n) replays the comparable's first day
      const c0 = Math.floor((today - SCHEDULE_HORIZON_DAYS + APPLY_TO_LISTING_DAYS - first) / n);
      for (let c = c0; c <= c0 + Math.ceil((2 * SCHEDULE_HORIZON_DAYS) / n) + 1; c++) {
        const listingDay = c * n + first;
        const applyStartDay = listingDay - APPLY_TO_LISTING_DAYS;
        if (near(applyStartDay)) out.push({ ...seeded(a, c, applyStartDay), listingDay, ...listingPrice(a) });
      }
      continue;
    }
    const r0 = Math.floor((today - SCHEDULE_HORIZON_DAYS - startDay) / schedule.period);
    for (let r = r0; r <= r0 + Math.ceil((2 * SCHEDULE_HORIZON_DAYS) / schedule.period) + 1; r++) {
      const applyStartDay = startDay + r * schedule.period;
      if (!near(applyStartDay)) continue;
      const ref = place.closeBefore(a.code, applyStartDay);
      if (!ref) continue;
      out.push({ ...seeded(a, r, applyStartDay), ...seasonedPrice(a, ref, place.announcedClose(a)) });
    }
  }
  return out;
}

/**
 * Creates the seeded offerings of every round whose first apply day is within
 * SCHEDULE_HORIZON_DAYS of `today` (seededOfferings; idempotent). `created` (the runner's, kept
 * across days) remembers the rounds already written by this process, so a new day writes only the
 * rounds that entered the horizon instead of every one again (each is a transaction on the event
 * loop's thread with PGlite). Returns how many offerings were looked at.
 */
export async function scheduleSeeded(
  db: Db,
  schedule: SeedSchedule,
  today: number,
  place: ReplayPlacement,
  created: Set<string> = new Set(),
): Promise<number> {
  const all = seededOfferings(schedule, today, place);
  for (const o of all) {
    const key = `${o.source}#${o.round}`;
    if (created.has(key)) continue;
    await yieldToEventLoop(); // one task per new offering
    await db.transaction((tx) => createOffering(tx, o));
    created.add(key);
  }
  return all.length;
}
