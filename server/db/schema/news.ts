/**
 * Schema of the news area (server/modules/news, contract/news.ts): `news_articles` (operator and
 * generated items) and `news_instruments`, the instruments an article concerns.
 */
import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { NEWS_KINDS, NEWS_STATUSES } from '../../../contract/news';
import { createdAt, oneOf } from './columns';
import { users } from './auth';
import { uploads } from './identity';

/**
 * News items: operator articles (`operator`) and generated ones (contract/news.ts NEWS_KINDS),
 * each generated item unique by `sourceKey` (e.g. `exDividend:<ex session>`). Text in both
 * languages; the cover is an upload of purpose `newsCover`.
 */
export const newsArticles = pgTable(
  'news_articles',
  {
    id: serial('id').primaryKey(),
    /** contract/news.ts NEWS_KINDS */
    kind: text('kind', { enum: NEWS_KINDS }).notNull(),
    /** contract/news.ts NEWS_STATUSES */
    status: text('status', { enum: NEWS_STATUSES }).notNull().default('published'),
    sourceKey: text('source_key'),
    titleTw: text('title_tw').notNull(),
    titleEn: text('title_en').notNull(),
    bodyTw: text('body_tw').notNull(),
    bodyEn: text('body_en').notNull(),
    coverUploadId: text('cover_upload_id').references(() => uploads.id),
    /** The replayed date the item is about (generated items), else null. */
    replayDate: date('replay_date', { mode: 'string' }),
    createdBy: integer('created_by').references(() => users.id),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('news_articles_source_key_uq')
      .on(t.sourceKey)
      .where(sql`${t.sourceKey} is not null`),
    index('news_articles_published_idx').on(t.status, t.publishedAt, t.id),
    check('news_articles_kind_check', oneOf(t.kind, NEWS_KINDS)),
    check('news_articles_status_check', oneOf(t.status, NEWS_STATUSES)),
  ],
);

/** The instruments an article concerns (the stock detail screen lists them). */
export const newsInstruments = pgTable(
  'news_instruments',
  {
    articleId: integer('article_id')
      .notNull()
      .references(() => newsArticles.id, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.articleId, t.symbol] }),
    index('news_instruments_symbol_idx').on(t.symbol, t.articleId),
  ],
);
