/**
 * Instrument search, the member's search history and hot searches (product-spec §2 routes
 * /home/search and /home/searchIndex, "Search: with history").
 *
 * - `search/query` (public): codes by prefix (leading zeros optional: '878' finds 00878), Chinese
 *   names by prefix or substring, the Latin words inside names by prefix ('ky' finds every '-KY'
 *   company, 'esg' the ESG funds; the directory has no English names), and a security type's
 *   name ('ETF', 'ETN', 'REIT', 'TDR'). Ranked by SEARCH_MATCHES, then by the replayed day's
 *   turnover so far, then by code. Case, full-width forms and spaces are ignored.
 * - History (member): a result the member opened, one entry per instrument (opening it again
 *   moves it to the top); cleared by the member.
 * - Hot (public): instruments opened from search by at least HOT_MIN_MEMBERS members within the
 *   last HOT_WINDOW_DAYS, by how many members; while none qualifies, the replayed day's most-traded
 *   instruments, labelled as such (`basis: 'turnover'`).
 */
import { z } from 'zod';
import { marketSchema, quoteSchema, securityTypeSchema, symbolSchema } from './market';

/** Longest query in characters (the longest name in the directory is 17). */
export const SEARCH_QUERY_MAX = 20;
/** Results per query: default and most. */
export const SEARCH_LIMIT_DEFAULT = 30;
export const SEARCH_LIMIT_MAX = 50;
/** History entries listed (most recent first). */
export const SEARCH_HISTORY_MAX = 20;
/** Hot searches: window (wall days), entries, and the fewest members an entry must have. */
export const HOT_WINDOW_DAYS = 7;
export const HOT_MAX = 10;
export const HOT_MIN_MEMBERS = 2;

/**
 * How a result matched, best first (the ranking's first key): the code itself; the code without
 * its leading zeros ('878' = 00878, '50' = 0050); the code's start; the start of the code without
 * leading zeros; the name's start; the start of a Latin word in the name ('KY' in '台耀-KY'); a
 * part of the name; the security type ('ETF'). "The name" is the Chinese short name or the
 * exchange's English short name ('tsmc' finds 2330), case-insensitively.
 */
export const SEARCH_MATCHES = [
  'code',
  'codeNoZeros',
  'codePrefix',
  'codeNoZerosPrefix',
  'namePrefix',
  'nameWord',
  'nameSubstring',
  'securityType',
] as const;
export type SearchMatch = (typeof SEARCH_MATCHES)[number];

/** The query text: trimmed, 1–SEARCH_QUERY_MAX characters (control characters never get here). */
export const searchQuerySchema = z.string().trim().min(1).max(SEARCH_QUERY_MAX);

export const searchReq = z.object({
  q: searchQuerySchema,
  limit: z.number().int().min(1).max(SEARCH_LIMIT_MAX).default(SEARCH_LIMIT_DEFAULT),
});

export const searchHitSchema = z.object({
  symbol: z.string(),
  name: z.string(),
  /** The exchange's English short name, or null when none is published. */
  nameEn: z.string().nullable(),
  market: marketSchema,
  securityType: securityTypeSchema,
  match: z.enum(SEARCH_MATCHES),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

/**
 * `items`: the best `limit` hits in rank order; `total`: every match; `quotes`: the current quote
 * of each hit that has one (so rows paint before the stream subscribes).
 */
export const searchRes = z.object({
  items: z.array(searchHitSchema),
  total: z.number().int(),
  quotes: z.array(quoteSchema),
});

/** Recording an opened result. */
export const searchHistoryAddReq = z.object({ symbol: symbolSchema });

export const searchHistoryEntrySchema = z.object({
  symbol: z.string(),
  name: z.string(),
  /** The exchange's English short name, or null when none is published. */
  nameEn: z.string().nullable(),
  /** Epoch ms of the last time the member opened it. */
  openedAt: z.number().int(),
});
export const searchHistoryRes = z.object({ items: z.array(searchHistoryEntrySchema) });

/** Where the hot list comes from: members' searches, or (none yet) the day's turnover. */
export const HOT_BASES = ['searches', 'turnover'] as const;

export const hotSearchItemSchema = z.object({
  symbol: z.string(),
  name: z.string(),
  /** The exchange's English short name, or null when none is published. */
  nameEn: z.string().nullable(),
  /** basis 'searches': members who opened it within the window; otherwise null. */
  members: z.number().int().nullable(),
  /** basis 'turnover': the replayed day's turnover so far (TWD minor); otherwise null. */
  turnoverMinor: z.number().int().nullable(),
});
export const hotSearchesRes = z.object({
  basis: z.enum(HOT_BASES),
  /** The window in days (basis 'searches'). */
  windowDays: z.number().int(),
  /** The replayed trading day (basis 'turnover'), null for a live source. */
  replayDate: z.string().nullable(),
  items: z.array(hotSearchItemSchema),
});
