/**
 * Public IPO subscription (公開申購抽籤; product-spec "New share subscription", routes
 * `/market/subscribe`, `/market/subscribeDetail`, `/market/subscribeRecord`).
 *
 * Rules (docs/tw-market-rules.md "Public subscription", Taiwan Securities Association underwriting
 * rules Art. 53): one application per member per offering, for `sharesPerApplication` shares
 * (usually 1 lot = 1,000); the member pays price × shares + NT$20 processing fee (kept) + NT$50
 * winner-notification fee (refunded to members who do not win). Business days of an offering:
 * apply days 1–3, deduction day 4 (an application whose deduction fails is disqualified and never
 * drawn), draw day 5 (only when oversubscribed: more qualified applications than units), refund day
 * 6 (non-winners get price × shares + NT$50 back), shares delivered on the listing day and held like
 * any long position without leverage.
 *
 * The draw (drawWinners) is verifiable: the offering publishes sha256(seed) before applications
 * open, draws with the seed, then reveals it; anyone re-runs drawWinners on the published list of
 * qualified application numbers and gets the same winners (scripts/verify-draw.ts; the detail
 * screen in the browser, Web Crypto). Units: money in TWD minor (1/100 NT$), shares.
 */
import { z } from 'zod';
import { idSchema as id } from './ids';
import { pageQuery, paged } from './envelope';
import { ceilToTick, type InstrumentKind } from './market-rules';
import { mulDivCeil, mulDivRound } from './money';

/**
 * The market types the exchanges' public-subscription announcements (公開申購公告) print, each
 * with the key the client translates it under (`ipo.marketTypes.<key>`). A text not listed is
 * shown as printed. 增資/現增 = a listed company's cash capital increase; 第一上市/上櫃公司 = a
 * foreign company's primary listing; 創新板 = the Taiwan Innovation Board.
 */
export const IPO_MARKET_TYPES: Readonly<Record<string, string>> = {
  初上市: 'twseIpo',
  初上櫃: 'tpexIpo',
  上市增資: 'twseCapitalIncrease',
  上櫃增資: 'tpexCapitalIncrease',
  創新板初上市: 'innovationIpo',
  創新板上市現增: 'innovationCapitalIncrease',
  創新板轉列上櫃: 'innovationToTpex',
  第一上市公司初上市: 'foreignTwseIpo',
  第一上市公司現金增資: 'foreignTwseCapitalIncrease',
  第一上櫃公司初上櫃: 'foreignTpexIpo',
  第一上櫃公司現金增資: 'foreignTpexCapitalIncrease',
};

/** Processing fee per application (NT$20, kept whether the member wins or not), TWD minor. */
export const IPO_PROCESSING_FEE_MINOR = 2_000;
/** Winner-notification fee per application (NT$50, refunded to members who do not win), TWD minor. */
export const IPO_NOTIFICATION_FEE_MINOR = 5_000;
/** Shares per application when the announcement does not say (1 lot). */
export const IPO_DEFAULT_SHARES_PER_APPLICATION = 1_000;

/**
 * Business-day offsets of an offering's steps from its first apply day (day 1 = offset 0): apply
 * days 1–3 (offsets 0–2), deduction day 4, draw day 5, refund day 6. The listing day is the
 * offering's own (`listingDay`).
 */
export const IPO_STEP_OFFSETS = { lastApply: 2, deduction: 3, draw: 4, refund: 5 } as const;

/**
 * An application's state (ipo_applications.status), the spec's subscription states:
 * - `unpaid` (未扣款): applied without the amount available; payable until deduction day;
 * - `waitingDraw` (待抽籤): the amount is held (or was deducted): qualified for the draw;
 * - `won` (中籤): drawn (or every qualified application when not oversubscribed);
 * - `notWon` (未中籤): not drawn; refunded price × shares + NT$50 on refund day;
 * - `subscribed` (已認購/撥券): a winner whose shares were delivered on the listing day;
 * - `waived` (不合格/放棄): the deduction failed (still unpaid on deduction day): never drawn.
 */
export const IPO_APPLICATION_STATUSES = [
  'unpaid',
  'waitingDraw',
  'won',
  'notWon',
  'subscribed',
  'waived',
] as const;
export type IpoApplicationStatus = (typeof IPO_APPLICATION_STATUSES)[number];

/**
 * How far the market-clock steps of an offering have run (ipo_offerings.stage): each step moves it
 * forward in the same transaction as its effects, so a restart neither skips nor repeats one.
 */
export const IPO_STAGES = ['scheduled', 'deducted', 'drawn', 'refunded', 'listed'] as const;
export type IpoStage = (typeof IPO_STAGES)[number];

/** The subscription phase a member sees: not started / in progress (apply days) / ended. */
export const IPO_PHASES = ['notStarted', 'inProgress', 'ended'] as const;
export type IpoPhase = (typeof IPO_PHASES)[number];
/** List tabs: open (in progress), upcoming (not started), ended. */
export const IPO_TABS = ['open', 'upcoming', 'ended'] as const;
export type IpoTab = (typeof IPO_TABS)[number];

/** Total frozen at application: price × shares + processing fee + notification fee (TWD minor). */
export function ipoPayableMinor(priceMinor: number, sharesPerApplication: number): number {
  return priceMinor * sharesPerApplication + IPO_PROCESSING_FEE_MINOR + IPO_NOTIFICATION_FEE_MINOR;
}

/** Units (applications that can win) = floor(shares offered / shares per application). */
export function ipoUnits(sharesOffered: number, sharesPerApplication: number): number {
  return Math.floor(sharesOffered / sharesPerApplication);
}

// ---------- the offer price on the replay ----------

/**
 * How an offering's price was set (ipo_offerings.pricing; docs/adr/0004-ipo-offers-on-the-replay.md):
 * - `announcement`: the real announcement's own ratio of offer to market (its price ÷ the real
 *   close of the last trading day before its subscription opened, where the repository's data
 *   have that close: 3037 欣興 116 ÷ 220.00 on 2025-12-31) applied to the replayed reference;
 * - `rule`: that ratio cannot be computed from the data, so IPO_RULE_RATIO is applied to the
 *   replayed reference;
 * - `listing`: the instrument has no replayed market (a first listing): the announcement's
 *   price; the listing opens at it on the replay (server/market/listing-proxies.ts);
 * - `asAnnounced`: the price as given (operator offerings, tests, and offerings created before
 *   prices were placed on the replay).
 */
export const IPO_PRICINGS = ['announcement', 'rule', 'listing', 'asAnnounced'] as const;
export type IpoPricing = (typeof IPO_PRICINGS)[number];

/**
 * Offer ÷ reference where the real announcement's ratio cannot be computed: 70 %, the floor of
 * a listed company's cash offering (TSA 承銷商會員輔導發行公司募集與發行有價證券自律規則 Art. 6 §1:
 * not below 70 % of the 1-, 3- or 5-day average close before pricing; docs/tw-market-rules.md
 * "Public subscription: offer price"). 3037's real price sits at it (116 ≈ 70 % of its
 * 2025-11 closes) before the stock's later rise.
 */
export const IPO_RULE_RATIO = { num: 70, den: 100 } as const;

/**
 * The offer on the replay: the lowest price on the tick table at or above
 * reference × num ÷ den (exact; TSA Art. 6 §1 sets a floor, so the offer never falls below the
 * ratio). TWD minor. @throws RangeError on a non-positive ratio part or unsafe values
 */
export function ipoOfferPriceMinor(
  referenceMinor: number,
  num: number,
  den: number,
  kind: InstrumentKind = 'stock',
): number {
  if (!(num > 0)) throw new RangeError('ratio must be positive');
  return ceilToTick(mulDivCeil(referenceMinor, num, den), kind);
}

/** The discount num/den stands for, in basis points of the reference: 10,000 − round(num × 10,000 ÷ den). */
export function ipoDiscountBps(num: number, den: number): number {
  return 10_000 - mulDivRound(num, 10_000, den);
}

// ---------- the draw ----------

const hex = (buf: ArrayBuffer) =>
  Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('');
const bytesOfHex = (h: string) => {
  if (!/^(?:[0-9a-f]{2})+$/.test(h)) throw new RangeError('seed must be lowercase hex');
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.slice(2 * i, 2 * i + 2), 16);
  return out;
};

/** sha256(seed bytes) as lowercase hex: the commitment an offering publishes before the draw. */
export async function drawCommitment(seedHex: string): Promise<string> {
  return hex(await globalThis.crypto.subtle.digest('SHA-256', bytesOfHex(seedHex)));
}

/** HMAC-SHA256(key = seed bytes, message = UTF-8 application number) as lowercase hex. */
export async function drawTicket(seedHex: string, applicationNo: string): Promise<string> {
  const key = await globalThis.crypto.subtle.importKey(
    'raw',
    bytesOfHex(seedHex),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return hex(await globalThis.crypto.subtle.sign('HMAC', key, new TextEncoder().encode(applicationNo)));
}

/**
 * The draw: each qualified application number gets the ticket HMAC-SHA256(seed, number) (hex);
 * numbers are ordered by ticket ascending (ties, which SHA-256 makes practically impossible, by
 * number); the first `units` win. When `units` ≥ the number of applications every one wins (no
 * draw is needed: not oversubscribed). Pure and deterministic: the same seed and list give the
 * same winners on the server, in scripts/verify-draw.ts and in the browser (Web Crypto).
 * @param seedHex the revealed seed (lowercase hex, 32 bytes on the server)
 * @param applicationNos the published qualified application numbers (any order; duplicates refused)
 * @param units how many applications can win (offering units)
 * @returns the winning numbers in ticket order
 * @throws RangeError on a malformed seed, duplicates or a negative `units`
 */
export async function drawWinners(
  seedHex: string,
  applicationNos: readonly string[],
  units: number,
): Promise<string[]> {
  if (!Number.isInteger(units) || units < 0) throw new RangeError('units must be a whole number ≥ 0');
  if (new Set(applicationNos).size !== applicationNos.length)
    throw new RangeError('duplicate application number');
  const tickets = await Promise.all(
    applicationNos.map(async (no) => ({ no, t: await drawTicket(seedHex, no) })),
  );
  tickets.sort((a, b) => (a.t < b.t ? -1 : a.t > b.t ? 1 : a.no < b.no ? -1 : a.no > b.no ? 1 : 0));
  return tickets.slice(0, units).map((x) => x.no);
}

// ---------- REST ----------

const minor = z.number().int();
const isoDate = z.string();

/** ipo/list: offerings of one tab, paged. */
export const ipoListReq = pageQuery.extend({ tab: z.enum(IPO_TABS).default('open') });

/** An offering as listed. Dates are the replayed calendar's (the date the app shows for that day). */
export const ipoOfferingSchema = z.object({
  id: z.number().int(),
  symbol: z.string(),
  name: z.string(),
  /** The exchange's English short name; null when it publishes none or the company is not listed yet. */
  nameEn: z.string().nullable(),
  /** The announcement's market text (初上市, 上櫃增資, …). */
  marketType: z.string(),
  /**
   * The offer price; null while the close it is set from has not been replayed yet (an upcoming
   * offering priced `announcement` or `rule`: showing it would tell that close in advance).
   */
  priceMinor: minor.nullable(),
  pricing: z.enum(IPO_PRICINGS),
  /** The replayed close the price was set from and its replayed date (`announcement`/`rule`). */
  referenceMinor: minor.nullable(),
  referenceDate: isoDate.nullable(),
  /** The documented discount to that close, basis points (4727 = 47.27 %). */
  discountBps: z.number().int().nullable(),
  sharesOffered: z.number().int(),
  sharesPerApplication: z.number().int(),
  /** Units that can win (sharesOffered / sharesPerApplication). */
  units: z.number().int(),
  phase: z.enum(IPO_PHASES),
  stage: z.enum(IPO_STAGES),
  applyStart: isoDate,
  applyEnd: isoDate,
  deductionDate: isoDate,
  drawDate: isoDate,
  refundDate: isoDate,
  listingDate: isoDate,
  /**
   * The real announcement it comes from (TWSE 公開申購公告), null for an operator's offering: its
   * real (2026) first apply date, its price, and the real close its ratio was computed from
   * (`announcement` pricing only, else null).
   */
  source: z
    .object({
      applyStart: isoDate,
      priceMinor: minor,
      closeMinor: minor.nullable(),
      closeDate: isoDate.nullable(),
    })
    .nullable(),
  /** Price × shares + NT$20 + NT$50 (TWD minor); null while the price is. */
  payableMinor: minor.nullable(),
  /** The current price of the instrument when it trades in the replay, else null ('--'). */
  marketPriceMinor: minor.nullable(),
  /** Price-earnings ratio as a decimal text when known, else null ('--' on screen). */
  pe: z.string().nullable(),
  industryPe: z.string().nullable(),
  /** Applications so far (all states but waived). */
  applications: z.number().int(),
  /** The member's own application on it, if any. */
  myStatus: z.enum(IPO_APPLICATION_STATUSES).nullable(),
});
export type IpoOffering = z.infer<typeof ipoOfferingSchema>;
export const ipoListRes = paged(ipoOfferingSchema);

export const ipoIdReq = z.object({ id });

/** The member's application. */
export const ipoApplicationSchema = z.object({
  id: z.number().int(),
  applicationNo: z.string(),
  offeringId: z.number().int(),
  symbol: z.string(),
  name: z.string(),
  /** The exchange's English short name; null when it publishes none or the company is not listed yet. */
  nameEn: z.string().nullable(),
  status: z.enum(IPO_APPLICATION_STATUSES),
  shares: z.number().int(),
  priceMinor: minor,
  /** Amount to hold: price × shares + fees (TWD minor). */
  payableMinor: minor,
  /** Amount held or paid so far (TWD minor): 0 while unpaid. */
  paidMinor: minor,
  /** Amount refunded (TWD minor): price × shares + NT$50 to a non-winner. */
  refundedMinor: minor,
  /** Units won: 1 for a winner, else 0. */
  wonUnits: z.number().int(),
  /** The position created on the listing day, if any. */
  orderId: z.number().int().nullable(),
  /** True while the member can still pay an unpaid application (before deduction day). */
  payable: z.boolean(),
  drawDate: isoDate,
  listingDate: isoDate,
  createdAt: z.number().int(),
});
export type IpoApplication = z.infer<typeof ipoApplicationSchema>;

/** The published draw of an offering: commitment from the start; the list and seed after the draw. */
export const ipoDrawSchema = z.object({
  offeringId: z.number().int(),
  /** sha256(seed), hex: published before applications open. */
  commitment: z.string(),
  /** The seed (hex), revealed once the draw has run; null before. */
  seed: z.string().nullable(),
  units: z.number().int(),
  /** Whether a draw was needed (more qualified applications than units). */
  oversubscribed: z.boolean().nullable(),
  /** Published qualified application numbers (after deduction day), ascending; [] before. */
  qualified: z.array(z.string()),
  /** Winning numbers in ticket order (after the draw); [] before. */
  winners: z.array(z.string()),
  drawnAt: z.number().int().nullable(),
});
export type IpoDraw = z.infer<typeof ipoDrawSchema>;

/** ipo/detail: every field of the spec's subscription entity, the member's application and the draw. */
export const ipoDetailRes = z.object({
  offering: ipoOfferingSchema,
  application: ipoApplicationSchema.nullable(),
  draw: ipoDrawSchema,
  /** The replayed date the app shows for today. */
  today: isoDate,
});
export type IpoDetail = z.infer<typeof ipoDetailRes>;

/** ipo/apply: one application to an offering. Money-moving (idempotency key). */
export const ipoApplyReq = z.object({ offeringId: id });
/** ipo/pay: holds the amount of an unpaid application (while payable). Money-moving. */
export const ipoPayReq = z.object({ applicationId: id });

/** ipo/records: the member's applications, newest first. */
export const ipoRecordsReq = pageQuery.extend({ status: z.enum(IPO_APPLICATION_STATUSES).optional() });
export const ipoRecordsRes = paged(ipoApplicationSchema);
