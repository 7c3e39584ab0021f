/**
 * News articles: reading (published items, newest first, optionally those naming an instrument),
 * the operator's publishing and editing (audited, in one transaction with the article and its
 * instruments), withdrawing, and writing a generated item once per source key
 * (contract/news.ts). Texts as given (tw and en); the cover is an upload of purpose `newsCover`,
 * served publicly by cover.ts once its article is published.
 */
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { NewsArticle, NewsItem, NewsKind, NewsStatus } from '../../../contract/news';
import type { Db, Tx } from '../../db/client';
import { newsArticles, newsInstruments, uploads } from '../../db/schema';
import { audit } from '../common/audit';
import { fail } from '../common/errors';
import { pageOf } from '../common/paging';

export type ArticleRow = typeof newsArticles.$inferSelect;

/** Characters of the body shown in a list. */
const SUMMARY_CHARS = 80;

/** The public address of an article's cover (cover.ts). */
export const coverUrl = (a: Pick<ArticleRow, 'id' | 'coverUploadId'>): string | null =>
  a.coverUploadId ? `/api/vue/news/cover/${a.id}` : null;

const summary = (body: string) => {
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length > SUMMARY_CHARS ? `${flat.slice(0, SUMMARY_CHARS)}…` : flat;
};

function itemDto(a: ArticleRow, symbols: string[]): NewsItem {
  return {
    id: a.id,
    kind: a.kind,
    titleTw: a.titleTw,
    titleEn: a.titleEn,
    summaryTw: summary(a.bodyTw),
    summaryEn: summary(a.bodyEn),
    coverUrl: coverUrl(a),
    symbols,
    replayDate: a.replayDate,
    publishedAt: a.publishedAt.getTime(),
  };
}

function articleDto(a: ArticleRow, symbols: string[]): NewsArticle {
  return { ...itemDto(a, symbols), bodyTw: a.bodyTw, bodyEn: a.bodyEn, status: a.status };
}

async function symbolsOf(db: Db | Tx, ids: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (!ids.length) return out;
  const rows = await db
    .select()
    .from(newsInstruments)
    .where(inArray(newsInstruments.articleId, ids))
    .orderBy(newsInstruments.articleId, newsInstruments.symbol);
  for (const r of rows) out.set(r.articleId, [...(out.get(r.articleId) ?? []), r.symbol]);
  return out;
}

/** A page of articles matching `where`, newest first (published time, then id). */
async function page(
  db: Db,
  where: SQL | undefined,
  p: { page: number; pageSize: number },
  symbol?: string,
): Promise<{ rows: ArticleRow[]; total: number; symbols: Map<number, string[]> }> {
  const bySymbol = symbol
    ? sql`${newsArticles.id} in (select ${newsInstruments.articleId} from ${newsInstruments} where ${newsInstruments.symbol} = ${symbol})`
    : undefined;
  const cond = and(where, bySymbol);
  const newest = db
    .select()
    .from(newsArticles)
    .where(cond)
    .orderBy(desc(newsArticles.publishedAt), desc(newsArticles.id));
  const { items: rows, total } = await pageOf(db, newest, { table: newsArticles, where: cond }, p);
  return {
    rows,
    total,
    symbols: await symbolsOf(
      db,
      rows.map((r) => r.id),
    ),
  };
}

/** news/list: published items, newest first, optionally only those naming `symbol`. */
export async function listPublished(
  db: Db,
  p: { page: number; pageSize: number; symbol?: string },
): Promise<{ items: NewsItem[]; total: number; page: number; pageSize: number }> {
  const r = await page(db, eq(newsArticles.status, 'published'), p, p.symbol);
  return {
    items: r.rows.map((a) => itemDto(a, r.symbols.get(a.id) ?? [])),
    total: r.total,
    page: p.page,
    pageSize: p.pageSize,
  };
}

/** admin/news: every article, newest first, optionally of one kind. */
export async function listAll(
  db: Db,
  p: { page: number; pageSize: number; kind?: NewsKind },
): Promise<{ items: NewsArticle[]; total: number; page: number; pageSize: number }> {
  const r = await page(db, p.kind ? eq(newsArticles.kind, p.kind) : undefined, p);
  return {
    items: r.rows.map((a) => articleDto(a, r.symbols.get(a.id) ?? [])),
    total: r.total,
    page: p.page,
    pageSize: p.pageSize,
  };
}

/**
 * One article; members see published ones only.
 * @throws AppError newsNotFound when it does not exist (or is withdrawn and `publishedOnly`).
 */
export async function getArticle(db: Db | Tx, id: number, publishedOnly: boolean): Promise<NewsArticle> {
  const [a] = await db.select().from(newsArticles).where(eq(newsArticles.id, id));
  if (!a || (publishedOnly && a.status !== 'published')) throw fail('newsNotFound');
  return articleDto(a, (await symbolsOf(db, [a.id])).get(a.id) ?? []);
}

/** The fields of an operator article (contract/news.ts adminSaveNewsReq). */
export interface ArticleInput {
  id?: number;
  titleTw: string;
  titleEn: string;
  bodyTw: string;
  bodyEn: string;
  coverUploadId?: string | null;
  symbols: string[];
}

/**
 * Publishes a new operator article or edits one (any kind may be edited), audited in the same
 * transaction. The cover must be an upload of purpose `newsCover`.
 * @throws AppError newsNotFound (edit of a missing id) | uploadFailed (not a news cover upload)
 */
export async function saveArticle(db: Db, actorUserId: number, input: ArticleInput): Promise<NewsArticle> {
  return db.transaction(async (tx) => {
    if (input.coverUploadId) {
      const [u] = await tx
        .select({ purpose: uploads.purpose })
        .from(uploads)
        .where(eq(uploads.id, input.coverUploadId));
      if (!u || u.purpose !== 'newsCover') throw fail('uploadFailed');
    }
    const values = {
      titleTw: input.titleTw,
      titleEn: input.titleEn,
      bodyTw: input.bodyTw,
      bodyEn: input.bodyEn,
      coverUploadId: input.coverUploadId ?? null,
    };
    let id: number;
    let before: NewsArticle | null = null;
    if (input.id === undefined) {
      const [row] = await tx
        .insert(newsArticles)
        .values({ ...values, kind: 'operator', createdBy: actorUserId })
        .returning({ id: newsArticles.id });
      id = row!.id;
    } else {
      const [row] = await tx.select().from(newsArticles).where(eq(newsArticles.id, input.id)).for('update');
      if (!row) throw fail('newsNotFound');
      before = await getArticle(tx, row.id, false);
      await tx.update(newsArticles).set(values).where(eq(newsArticles.id, row.id));
      await tx.delete(newsInstruments).where(eq(newsInstruments.articleId, row.id));
      id = row.id;
    }
    const symbols = [...new Set(input.symbols)];
    if (symbols.length)
      await tx.insert(newsInstruments).values(symbols.map((symbol) => ({ articleId: id, symbol })));
    const after = await getArticle(tx, id, false);
    await audit(tx, {
      actorUserId,
      action: before ? 'news.update' : 'news.publish',
      targetType: 'news',
      targetId: id,
      before,
      after,
    });
    return after;
  });
}

/** Withdraws or republishes an article, audited. @throws AppError newsNotFound */
export async function setStatus(
  db: Db,
  actorUserId: number,
  id: number,
  status: NewsStatus,
): Promise<NewsArticle> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(newsArticles).where(eq(newsArticles.id, id)).for('update');
    if (!row) throw fail('newsNotFound');
    await tx.update(newsArticles).set({ status }).where(eq(newsArticles.id, id));
    const after = await getArticle(tx, id, false);
    await audit(tx, {
      actorUserId,
      action: 'news.status',
      targetType: 'news',
      targetId: id,
      before: { status: row.status },
      after: { status },
    });
    return after;
  });
}

/** A generated item (contract/news.ts NEWS_KINDS but `operator`). */
export interface GeneratedItem {
  kind: Exclude<NewsKind, 'operator'>;
  sourceKey: string;
  titleTw: string;
  titleEn: string;
  bodyTw: string;
  bodyEn: string;
  replayDate: string | null;
  symbols: string[];
}

/**
 * Writes a generated item unless one with its source key exists (a unique index: concurrent or
 * repeated runs write it once). @returns true when written now.
 */
export async function writeGenerated(db: Db, item: GeneratedItem, publishedAt: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(newsArticles)
      .values({
        kind: item.kind,
        sourceKey: item.sourceKey,
        titleTw: item.titleTw,
        titleEn: item.titleEn,
        bodyTw: item.bodyTw,
        bodyEn: item.bodyEn,
        replayDate: item.replayDate,
        publishedAt,
      })
      .onConflictDoNothing()
      .returning({ id: newsArticles.id });
    if (!row) return false;
    const symbols = [...new Set(item.symbols)];
    if (symbols.length)
      await tx.insert(newsInstruments).values(symbols.map((symbol) => ({ articleId: row.id, symbol })));
    return true;
  });
}

/** Whether an article with this source key exists. */
export async function hasSourceKey(db: Db, sourceKey: string): Promise<boolean> {
  const [r] = await db
    .select({ id: newsArticles.id })
    .from(newsArticles)
    .where(eq(newsArticles.sourceKey, sourceKey));
  return !!r;
}
