/**
 * news/* and the operator's admin/news* handlers (contract/news.ts; articles.ts does the work).
 * Members read published items only; the operator sees and edits every item.
 */
import type { Handlers } from '../common/context';
import { requireUser } from '../common/context';
import { getArticle, listAll, listPublished, saveArticle, setStatus } from './articles';

export const newsHandlers: Pick<
  Handlers,
  'news/list' | 'news/detail' | 'admin/news' | 'admin/saveNews' | 'admin/setNewsStatus'
> = {
  'news/list': (body, ctx) => listPublished(ctx.db, body),
  'news/detail': (body, ctx) => getArticle(ctx.db, body.id, true),
  'admin/news': (body, ctx) => listAll(ctx.db, body),
  'admin/saveNews': (body, ctx) => saveArticle(ctx.db, requireUser(ctx).id, body),
  'admin/setNewsStatus': (body, ctx) => setStatus(ctx.db, requireUser(ctx).id, body.id, body.status),
};
