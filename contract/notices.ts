/**
 * Notices (product-spec "notice"; routes `/home/notice`, `/home/noticeDetail?id=`): one inbox of
 * two tabs.
 * - `announcements`: operator notices (maintenance, rule changes), written in tw and en in the
 *   console's "Notices" panel and published or withdrawn there; read/unread per member.
 * - `account`: the member's own account events (a margin call, an IPO draw result, KYC, deposit,
 *   withdrawal and day-trading decisions), written by the module that decides them in the same
 *   database transaction (server/modules/notices/notify.ts `notifyMember`). They are stored as a
 *   kind and its parameters, never as a sentence: the client words them in its language
 *   (locales/more `notices.kind.<kind>.title|body`, interpolating `params`).
 *
 * Ids on the wire carry their tab: `a<n>` an announcement, `m<n>` an account notice.
 * Units: `createdAt` epoch ms; money params in minor units with their `currency`.
 */
import { z } from 'zod';
import { INT4_MAX, idSchema } from './ids';
import { pageQuery, paged } from './envelope';

/** The kinds of account notice, each a translatable title and body with its params. */
export const ACCOUNT_NOTICE_KINDS = [
  'marginCall',
  'forcedSale',
  'ipoWon',
  'ipoNotWon',
  'kycApproved',
  'kycRejected',
  'depositApproved',
  'depositRejected',
  'withdrawalApproved',
  'withdrawalRejected',
  'dayTradeApproved',
  'dayTradeRejected',
  /**
   * Copy trading: a mentor order one of the member's follows did not copy; params followId,
   * mentorOrderId, mentor (nickname), symbol, side, mentorLots, lots, copyReason (a SKIP_REASONS
   * value of contract/copy-trading.ts), refusal (error key or ''), amountMinor (zeroLots: the
   * smallest follow amount that would have copied one lot; else 0), currency.
   */
  'copySkipped',
  // Corporate actions (contract/corporate-actions.ts): a position's units changed, a resting order
  // re-priced or cancelled, a stock dividend's ex-rights value paid or charged.
  'positionAdjusted',
  'orderAdjusted',
  'orderCancelledByAction',
  'exRightsSettled',
] as const;
export type AccountNoticeKind = (typeof ACCOUNT_NOTICE_KINDS)[number];

export const NOTICE_TABS = ['announcements', 'account'] as const;
export type NoticeTab = (typeof NOTICE_TABS)[number];

/** Parameters of an account notice: names to numbers (minor units, bps, ids) or short texts. */
export const noticeParamsSchema = z.record(z.string(), z.union([z.string(), z.number()]));
export type NoticeParams = z.infer<typeof noticeParamsSchema>;

/**
 * `a<id>` (announcement, an int4 row: at most INT4_MAX) or `m<id>` (account notice, an int8 row:
 * at most 15 digits, below Number.MAX_SAFE_INTEGER).
 */
export const noticeIdSchema = z
  .string()
  .regex(/^(a[1-9][0-9]{0,9}|m[1-9][0-9]{0,14})$/)
  .refine((v) => v[0] === 'm' || Number(v.slice(1)) <= INT4_MAX);

/** Text in both languages. */
export const localizedSchema = z.object({ tw: z.string(), en: z.string() });
export type Localized = z.infer<typeof localizedSchema>;

export const noticeSchema = z.object({
  id: noticeIdSchema,
  tab: z.enum(NOTICE_TABS),
  /** `announcement`, or the account notice's kind. */
  kind: z.union([z.literal('announcement'), z.enum(ACCOUNT_NOTICE_KINDS)]),
  /** Announcements only (account notices are worded by the client from kind + params). */
  title: localizedSchema.nullable(),
  body: localizedSchema.nullable(),
  params: noticeParamsSchema,
  /** Epoch ms: published (announcement) or written (account notice). */
  createdAt: z.number().int(),
  read: z.boolean(),
});
export type Notice = z.infer<typeof noticeSchema>;

export const noticeListReq = pageQuery.extend({ tab: z.enum(NOTICE_TABS).default('announcements') });
export const noticeListRes = paged(noticeSchema);
export const noticeIdReq = z.object({ id: noticeIdSchema });
export const noticeUnreadRes = z.object({
  announcements: z.number().int(),
  account: z.number().int(),
  total: z.number().int(),
});
export type NoticeUnread = z.infer<typeof noticeUnreadRes>;

// ---------- operator side ----------

const titleField = z.string().trim().min(1).max(120);
const bodyField = z.string().trim().min(1).max(4_000);

/** Create (no id) or edit an announcement; a published one stays published. */
export const saveNoticeReq = z.object({
  id: idSchema.optional(),
  titleTw: titleField,
  titleEn: titleField,
  bodyTw: bodyField,
  bodyEn: bodyField,
});
export const publishNoticeReq = z.object({ id: idSchema, published: z.boolean() });
export const adminNoticeSchema = z.object({
  id: z.number().int(),
  title: localizedSchema,
  body: localizedSchema,
  /** Epoch ms, null while a draft or withdrawn. */
  publishedAt: z.number().int().nullable(),
  /** Members who have read it. */
  reads: z.number().int(),
  createdAt: z.number().int(),
});
export type AdminNotice = z.infer<typeof adminNoticeSchema>;
export const adminNoticesReq = pageQuery;
export const adminNoticesRes = paged(adminNoticeSchema);
