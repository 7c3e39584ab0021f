/**
 * Paged lists (every `{ items, total, page, pageSize }` answer, contract/envelope.ts `paged`): one
 * page of an ordered select, by limit and offset, and the count of every row it pages through.
 */
import { count, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { pageQuery } from '../../../contract/envelope';
import type { Db, Tx } from '../../db/client';

/** A page request (contract/envelope.ts `pageQuery`): `page` counts from 1, `pageSize` rows a page. */
export type PageQuery = Pick<z.infer<typeof pageQuery>, 'page' | 'pageSize'>;

/** One page of rows: `items` in the select's order, `total` rows in all, and the request's page and size. */
export type Page<T> = { items: T[]; total: number } & PageQuery;

/** A select with its order and no limit yet (a Drizzle select builder): the rows to page through. */
export type Pageable<R> = { limit(n: number): { offset(n: number): PromiseLike<R[]> } };

/**
 * What `total` counts: the rows of `table` matching `where` (the paged select's own filter, when
 * its joins drop no row), or a query answering `[{ n }]` (a count that needs the select's joins).
 */
export type Total =
  { table: PgTable; where?: SQL | undefined } | { query: PromiseLike<Array<{ n: number }>> };

/**
 * Page `q.page` of `rows` (`q.pageSize` rows from `(page - 1) × pageSize`), then the total: two
 * statements, in that order, on `db`. A page past the end has no items and the same total.
 */
export async function pageOf<R>(
  db: Db | Tx,
  rows: Pageable<R>,
  total: Total,
  q: PageQuery,
): Promise<Page<R>> {
  const items = await rows.limit(q.pageSize).offset((q.page - 1) * q.pageSize);
  const [counted] = await ('query' in total
    ? total.query
    : db.select({ n: count() }).from(total.table).where(total.where));
  return { items, total: counted!.n, page: q.page, pageSize: q.pageSize };
}

/** Page `q.page` of a list already read and ordered in memory; `total` is the list's length. */
export function pageOfList<T>(all: readonly T[], q: PageQuery): Page<T> {
  const start = (q.page - 1) * q.pageSize;
  return {
    items: all.slice(start, start + q.pageSize),
    total: all.length,
    page: q.page,
    pageSize: q.pageSize,
  };
}
