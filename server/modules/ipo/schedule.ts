/**
 * Public subscriptions on the market clock's business days (docs/decisions.md "Public
 * subscriptions on the replay calendar").
 *
 * A business day is a market-clock session number (server/market/clock.ts `session`: replay day k
 * counted from the anchor 2026-01-01, or, on the exchange clock, trading days since that date);
 * the app labels day k with the date it replays, `window.dateOf(k)` (server/market/window.ts).
 *
 * A real announcement (seed-data/corporate-actions/ipo_subscriptions.csv, 2026) is placed on the
 * day whose number is its real first apply day's business-day number in 2026 (the TWSE 2026
 * trading-day list; the three weekdays of 2025-12-29 … 31 count as −3 … −1), so on the exchange
 * clock an offering opens on its real day. The announcements span about 150 business days; to
 * keep open, upcoming and ended offerings at every point of the endless replay, the whole
 * schedule repeats every `period` days (round r adds r × period). Only rounds whose first apply
 * day lies within SCHEDULE_HORIZON_DAYS of the current day are created (idempotent: one row per
 * announcement and round, ipo_offerings_source_round_uq).
 *
 * The steps: apply days 1–3 are the announcement's own spacing compressed to the rule's three
 * days (contract/ipo.ts IPO_STEP_OFFSETS), deduction day 4, draw day 5, refund day 6; the source
 * has no listing date, so the listing day is LISTING_AFTER_DRAW_DAYS business days after the draw.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import {
  IPO_DEFAULT_SHARES_PER_APPLICATION,
  IPO_STEP_OFFSETS,
  drawCommitment,
  ipoUnits,
} from '../../../contract/ipo';
import type { Db, Tx } from '../../db/client';
import type { IpoAnnouncement } from '../../db/import';
import { ipoDraws, ipoOfferings } from '../../db/schema';
import { readCsvRecords, seedDataPath } from '../../market/csv';

/** Business days from the draw to the listing day when the announcement gives none. */
export const LISTING_AFTER_DRAW_DAYS = 5;
/** Seeded rounds are created when their first apply day is within this many days of today. */
export const SCHEDULE_HORIZON_DAYS = 40;
/** Days between the last announcement's listing and the first one's next round. */
const ROUND_GAP_DAYS = 10;

/** Business-day numbers of real dates (2026 TWSE trading days; late-December 2025 weekdays negative). */
export interface BusinessDays {
  dayOf(isoDate: string): number;
}

/** The 2026 TWSE trading-day list (seed-data/calendar/twse_trading_days_2026.csv) as BusinessDays. */
export async function loadBusinessDays(): Promise<BusinessDays> {
  const days = (await readCsvRecords(seedDataPath('calendar', 'twse_trading_days_2026.csv'))).map(
    (r) => r.date!,
  );
  const index = new Map(days.map((d, i) => [d, i + 1]));
  return {
    dayOf(iso) {
      const at = index.get(iso);
      if (at !== undefined) return at;
      if (iso < days[0]!) {
        // Weekdays from iso up to 2025-12-31 count back from 0.
        let n = 0;
        for (let t = Date.parse(`${iso}T00:00Z`); t < Date.parse('2026-01-01T00:00Z'); t += 86_400_000) {
          const wd = new Date(t).getUTCDay();
          if (wd !== 0 && wd !== 6) n++;
        }
        return 1 - n;
      }
      // A non-trading day inside the year: the next trading day's number.
      const next = days.find((d) => d > iso);
      if (!next) throw new RangeError(`date outside the 2026 calendar: ${iso}`);
      return index.get(next)!;
    },
  };
}

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

/**
 * Creates an offering and its published draw row with a fresh 32-byte seed and its commitment
 * sha256(seed) (idempotent on (source, round): an existing one is left as it is). Returns the id
 * of the new or existing offering.
 */
export async function createOffering(db: Db | Tx, o: NewOffering): Promise<number> {
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

/** Places the announcements on business days (see the module docstring). */
export function seedSchedule(announcements: readonly IpoAnnouncement[], days: BusinessDays): SeedSchedule {
  const items = announcements
    .filter((a) => a.sharesOffered >= (a.sharesPerApplication ?? IPO_DEFAULT_SHARES_PER_APPLICATION))
    .map((a) => ({ a, startDay: days.dayOf(a.applyStart) }));
  if (!items.length) return { items, period: 1 };
  const first = Math.min(...items.map((i) => i.startDay));
  const last = Math.max(...items.map((i) => i.startDay));
  const period = last - first + IPO_STEP_OFFSETS.draw + LISTING_AFTER_DRAW_DAYS + ROUND_GAP_DAYS;
  return { items, period };
}

/**
 * Creates the seeded offerings of every round whose first apply day is within
 * SCHEDULE_HORIZON_DAYS of `today` (idempotent). Returns how many rows were looked at.
 */
export async function scheduleSeeded(db: Db, schedule: SeedSchedule, today: number): Promise<number> {
  let n = 0;
  for (const { a, startDay } of schedule.items) {
    const r0 = Math.floor((today - SCHEDULE_HORIZON_DAYS - startDay) / schedule.period);
    for (let r = r0; r <= r0 + Math.ceil((2 * SCHEDULE_HORIZON_DAYS) / schedule.period) + 1; r++) {
      const applyStartDay = startDay + r * schedule.period;
      if (Math.abs(applyStartDay - today) > SCHEDULE_HORIZON_DAYS) continue;
      n++;
      const o: NewOffering = {
        source: `twse:${a.code}:${a.applyStart}`,
        round: r,
        symbol: a.code,
        name: a.name,
        marketType: a.marketType,
        priceMinor: a.priceMinor,
        sharesOffered: a.sharesOffered,
        sharesPerApplication: a.sharesPerApplication ?? IPO_DEFAULT_SHARES_PER_APPLICATION,
        applyStartDay,
        realApplyStart: a.applyStart,
        realDrawDate: a.drawDate,
      };
      await db.transaction((tx) => createOffering(tx, o));
    }
  }
  return n;
}
