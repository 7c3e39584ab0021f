/**
 * News (product-spec "News"; routes `/home/moreNews` the list, `/home/DetailsPage?id=` one
 * article, a section on `/home/index` and on the stock detail; docs/glossary.md).
 *
 * Kinds: `operator` (an article the operator publishes in the console, text in tw and en, an
 * optional cover image uploaded with purpose `newsCover`) and the generated items, each unique by
 * its source: `exDividend` (the exchange's ex-dividend events a few replayed days before the
 * ex-date), `ipo` (a public subscription opening, from the real announcements), `marketSummary`
 * (the replayed day's top movers and turnover, written at the close from the feed).
 */
import { z } from 'zod';
import { idSchema as id } from './ids';
import { uploadIdSchema } from './identity';
import { symbolSchema } from './market';
import { pageQuery, paged } from './envelope';

export const NEWS_KINDS = ['operator', 'exDividend', 'ipo', 'marketSummary'] as const;
export type NewsKind = (typeof NEWS_KINDS)[number];
/** `withdrawn`: taken down by the operator (no longer listed or readable by members). */
export const NEWS_STATUSES = ['published', 'withdrawn'] as const;
export type NewsStatus = (typeof NEWS_STATUSES)[number];

/** Longest title and body accepted (characters). */
export const NEWS_TITLE_MAX = 120;
export const NEWS_BODY_MAX = 10_000;
/** Instruments one article may name. */
export const NEWS_SYMBOLS_MAX = 20;

const text = (max: number) => z.string().trim().min(1).max(max);

/** An article in a list (no body). */
export const newsItemSchema = z.object({
  id: z.number().int(),
  kind: z.enum(NEWS_KINDS),
  titleTw: z.string(),
  titleEn: z.string(),
  /** The first characters of the body in each language (list preview). */
  summaryTw: z.string(),
  summaryEn: z.string(),
  /** Public address of the cover image, or null. */
  coverUrl: z.string().nullable(),
  symbols: z.array(z.string()),
  /** The replayed date the item is about (generated items), else null. */
  replayDate: z.string().nullable(),
  publishedAt: z.number().int(),
});
export type NewsItem = z.infer<typeof newsItemSchema>;

export const newsArticleSchema = newsItemSchema.extend({
  bodyTw: z.string(),
  bodyEn: z.string(),
  status: z.enum(NEWS_STATUSES),
});
export type NewsArticle = z.infer<typeof newsArticleSchema>;

/** news/list: published items, newest first; optionally only those naming `symbol`. */
export const newsListReq = pageQuery.extend({ symbol: symbolSchema.optional() });
export const newsListRes = paged(newsItemSchema);
export const newsIdReq = z.object({ id });

/** admin/news: every article (published and withdrawn), newest first. */
export const adminNewsReq = pageQuery.extend({ kind: z.enum(NEWS_KINDS).optional() });
export const adminNewsRes = paged(newsArticleSchema);

/** admin/saveNews: publishes a new operator article (no id) or edits one (id). */
export const adminSaveNewsReq = z.object({
  id: id.optional(),
  titleTw: text(NEWS_TITLE_MAX),
  titleEn: text(NEWS_TITLE_MAX),
  bodyTw: text(NEWS_BODY_MAX),
  bodyEn: text(NEWS_BODY_MAX),
  coverUploadId: uploadIdSchema.nullable().optional(),
  symbols: z.array(symbolSchema).max(NEWS_SYMBOLS_MAX).default([]),
});
/** admin/setNewsStatus: withdraw or republish any article. */
export const adminNewsStatusReq = z.object({ id, status: z.enum(NEWS_STATUSES) });
