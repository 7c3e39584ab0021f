/**
 * The operator-editable pages (contract/common.ts PAGE_NAMES: the privacy agreement at
 * `/user/agreement`, about us at `/user/aboutUs`), one text per language. The text shipped with
 * the app lives in ./page-texts/<name>.<lang>.md (first line `# Title`, then the body); a
 * `site_pages` row written by an operator replaces it for that language. Bodies are plain text,
 * never HTML (the client renders paragraphs), so an operator's edit cannot run script in a
 * member's browser. Each save is audited with the text before and after.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import {
  PAGE_LANGS as LANGS,
  PAGE_NAMES,
  type PageLang as Lang,
  type PageName,
} from '../../../contract/common';
import type { Db, Tx } from '../../db/client';
import { sitePages } from '../../db/schema';
import { audit } from './audit';
import { requireUser, type Handlers } from './context';

const textsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'page-texts');

interface PageText {
  lang: Lang;
  title: string;
  body: string;
  updatedAt: string | null;
}

/** The shipped text of `name` in `lang`: `# Title` on the first line, the body after it. */
function shipped(name: PageName, lang: Lang): PageText {
  const raw = readFileSync(path.join(textsDir, `${name}.${lang}.md`), 'utf8');
  const [first = '', ...rest] = raw.split('\n');
  return { lang, title: first.replace(/^#\s*/, '').trim(), body: rest.join('\n').trim(), updatedAt: null };
}
const SHIPPED = new Map(PAGE_NAMES.flatMap((n) => LANGS.map((l) => [`${n}.${l}`, shipped(n, l)] as const)));

/** A page in both languages: the operator's text where one was saved, the shipped one otherwise. */
export async function readPage(db: Db | Tx, name: PageName) {
  const rows = await db.select().from(sitePages).where(eq(sitePages.name, name));
  const texts = LANGS.map((lang): PageText => {
    const r = rows.find((x) => x.lang === lang);
    return r
      ? { lang, title: r.title, body: r.body, updatedAt: r.updatedAt.toISOString() }
      : SHIPPED.get(`${name}.${lang}`)!;
  });
  return { name, texts };
}

export const pageHandlers: Pick<Handlers, 'common/page' | 'admin/pages' | 'admin/savePage'> = {
  'common/page': (body, ctx) => readPage(ctx.db, body.name),
  'admin/pages': (_body, ctx) => Promise.all(PAGE_NAMES.map((n) => readPage(ctx.db, n))),

  /** Replaces one language's text of a page; audited with the text it replaced. */
  async 'admin/savePage'(body, ctx) {
    const op = requireUser(ctx);
    return ctx.db.transaction(async (tx) => {
      const before = (await readPage(tx, body.name)).texts.find((t) => t.lang === body.lang);
      const now = new Date(ctx.now());
      await tx
        .insert(sitePages)
        .values({
          name: body.name,
          lang: body.lang,
          title: body.title,
          body: body.body,
          updatedBy: op.id,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: [sitePages.name, sitePages.lang],
          set: { title: body.title, body: body.body, updatedBy: op.id, updatedAt: now },
        });
      await audit(tx, {
        actorUserId: op.id,
        action: 'page.update',
        targetType: 'site_page',
        targetId: `${body.name}.${body.lang}`,
        before: before && { title: before.title, body: before.body },
        after: { title: body.title, body: body.body },
      });
      return readPage(tx, body.name);
    });
  },
};
