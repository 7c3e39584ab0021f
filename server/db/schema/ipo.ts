/**
 * Schema of the ipo area (server/modules/ipo, contract/ipo.ts): public subscriptions,
 * `ipo_offerings`, the members' `ipo_applications` and each offering's published `ipo_draws`.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { IPO_APPLICATION_STATUSES, IPO_PRICINGS, IPO_STAGES } from '../../../contract/ipo';
import { money, createdAt, oneOf } from './columns';
import { users } from './auth';
import { instruments } from './market';
import { orders } from './trading';

/**
 * Public subscriptions. Business days are market-clock session numbers (server/market/clock.ts
 * `session`): apply days `apply_start_day` … +2, deduction +3, draw +4, refund +5, listing
 * `listing_day`. Seeded offerings come from the real announcements (seed-data/corporate-actions,
 * one row per announcement and replay round: `source`, `round`); `seed` is the draw's secret
 * (hex), published as ipo_draws.commitment from creation and revealed there after the draw.
 */
export const ipoOfferings = pgTable(
  'ipo_offerings',
  {
    id: serial('id').primaryKey(),
    /** Where the offering comes from: `twse:<code>:<real apply start>` for a seeded one. */
    source: text('source').notNull(),
    /** Replay round of a seeded announcement (0 for one-off offerings). */
    round: integer('round').notNull().default(0),
    symbol: text('symbol')
      .notNull()
      .references(() => instruments.symbol),
    name: text('name').notNull(),
    /** The announcement's market text (初上市, 上櫃增資, …). */
    marketType: text('market_type').notNull(),
    priceMinor: money('price_minor').notNull(),
    sharesOffered: money('shares_offered').notNull(),
    sharesPerApplication: integer('shares_per_application').notNull(),
    applyStartDay: integer('apply_start_day').notNull(),
    listingDay: integer('listing_day').notNull(),
    realApplyStart: date('real_apply_start', { mode: 'string' }).notNull(),
    realDrawDate: date('real_draw_date', { mode: 'string' }).notNull(),
    /** contract/ipo.ts IPO_STAGES */
    stage: text('stage', { enum: IPO_STAGES }).notNull().default('scheduled'),
    seed: text('seed').notNull(),
    // How the price was placed on the replay (docs/adr/0004-ipo-offers-on-the-replay.md).
    /** contract/ipo.ts IPO_PRICINGS */
    pricing: text('pricing', { enum: IPO_PRICINGS }).notNull().default('asAnnounced'),
    /** The real announcement's price; its real close before its subscription (`announcement`). */
    announcedPriceMinor: money('announced_price_minor'),
    announcedCloseMinor: money('announced_close_minor'),
    announcedCloseDate: date('announced_close_date', { mode: 'string' }),
    /** The replayed close the price was set from and its clock session (`announcement`/`rule`). */
    referenceMinor: money('reference_minor'),
    referenceDay: integer('reference_day'),
    /** Offer ÷ reference applied: ratio_num ÷ ratio_den. */
    ratioNum: integer('ratio_num'),
    ratioDen: integer('ratio_den'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ipo_offerings_source_round_uq').on(t.source, t.round),
    check('ipo_offerings_pricing_check', oneOf(t.pricing, IPO_PRICINGS)),
    check(
      'ipo_offerings_ratio_check',
      sql`(${t.ratioNum} is null) = (${t.ratioDen} is null) and (${t.ratioDen} is null or (${t.ratioNum} > 0 and ${t.ratioDen} > 0))`,
    ),
    index('ipo_offerings_start_idx').on(t.applyStartDay),
    check('ipo_offerings_stage_check', oneOf(t.stage, IPO_STAGES)),
    check(
      'ipo_offerings_units_positive',
      sql`${t.sharesPerApplication} > 0 and ${t.sharesOffered} >= ${t.sharesPerApplication}`,
    ),
    check('ipo_offerings_days_order', sql`${t.listingDay} > ${t.applyStartDay} + 5`),
  ],
);

/** One application per member and offering (ipo_applications_one_per_member_uq). */
export const ipoApplications = pgTable(
  'ipo_applications',
  {
    id: serial('id').primaryKey(),
    /** Published number the draw ranks (`<offering id>-<application id>`, zero-padded). */
    applicationNo: text('application_no').notNull().unique(),
    offeringId: integer('offering_id')
      .notNull()
      .references(() => ipoOfferings.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** contract/ipo.ts IPO_APPLICATION_STATUSES */
    status: text('status', { enum: IPO_APPLICATION_STATUSES }).notNull(),
    shares: integer('shares').notNull(),
    priceMinor: money('price_minor').notNull(),
    payableMinor: money('payable_minor').notNull(),
    paidMinor: money('paid_minor').notNull().default(0),
    refundedMinor: money('refunded_minor').notNull().default(0),
    wonUnits: integer('won_units').notNull().default(0),
    /** The position delivered on the listing day. */
    orderId: integer('order_id').references(() => orders.id),
    /** The applicant's verified ID number (null on rows from before it was required). */
    idNumber: text('id_number'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ipo_applications_one_per_member_uq').on(t.offeringId, t.userId),
    // One application per person (verified ID number) and offering, whatever the account.
    uniqueIndex('ipo_applications_one_per_id_uq').on(t.offeringId, t.idNumber),
    index('ipo_applications_user_idx').on(t.userId, t.id),
    check('ipo_applications_status_check', oneOf(t.status, IPO_APPLICATION_STATUSES)),
  ],
);

/**
 * The published draw of an offering: the commitment sha256(seed) from creation; after deduction
 * day the qualified application numbers; after the draw the winners and the revealed seed.
 */
export const ipoDraws = pgTable('ipo_draws', {
  offeringId: integer('offering_id')
    .primaryKey()
    .references(() => ipoOfferings.id),
  commitment: text('commitment').notNull(),
  /** Null until revealed (after the draw). */
  seed: text('seed'),
  units: integer('units').notNull(),
  qualified: jsonb('qualified').$type<string[]>(),
  winners: jsonb('winners').$type<string[]>(),
  oversubscribed: boolean('oversubscribed'),
  drawnAt: timestamp('drawn_at', { withTimezone: true }),
});
