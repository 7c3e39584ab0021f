/** Site configuration (product-spec §3 "Site configuration", §7 `/common/config`). */
import { z } from 'zod';

export const configReq = z.object({ type: z.literal('all').default('all') });
/** A list of {name, value} items the client merges into one object; `leverages` is a comma list. */
export const configRes = z.array(z.object({ name: z.string(), value: z.string() }));

/**
 * Request fields whose text may span lines (an operator's rejection reason, a page's, a news
 * article's or a notice's body, a member's feedback, a support message): tab, line feed and
 * carriage return are allowed in them and nowhere else.
 */
export const MULTI_LINE_FIELDS: ReadonlySet<string> = new Set([
  'reason',
  'body',
  'bodyTw',
  'bodyEn',
  'comment',
  'text',
]);

// C0 controls except tab, LF and CR; DEL; C1 controls. None of them has a use in a form field,
// and NUL in particular is refused by PostgreSQL text columns (a 500 if it reached the database).
// eslint-disable-next-line no-control-regex
const CONTROL_MULTI_LINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
// The same plus tab, LF and CR, for single-line fields.
// eslint-disable-next-line no-control-regex
const CONTROL_SINGLE_LINE = /[\u0000-\u001F\u007F-\u009F]/;
// A high surrogate not followed by a low one, or a low one not preceded by a high one: not
// encodable as UTF-8 (PostgreSQL refuses it; other systems substitute U+FFFD silently).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `s` is text a request may carry in a field of that kind (see forbiddenTextPath). */
export function isCleanText(s: string, multiLine: boolean): boolean {
  return !(multiLine ? CONTROL_MULTI_LINE : CONTROL_SINGLE_LINE).test(s) && !LONE_SURROGATE.test(s);
}

/**
 * Walks a parsed JSON request body and returns the path of the first string (value or object key)
 * holding a control character or an unpaired surrogate, or null when every string is clean.
 * Control characters are C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F); tab, LF and CR
 * are allowed inside the fields named in MULTI_LINE_FIELDS (at any depth). Nesting deeper than
 * `maxDepth` (64) counts as forbidden (path `…/<too deep>`), so the walk is bounded whatever the body.
 * The server runs it on every JSON body before the zod schema, so each endpoint refuses such
 * input with `parameterError` (400) before anything is written.
 */
export function forbiddenTextPath(value: unknown, maxDepth = 64): string | null {
  const walk = (v: unknown, path: string, multiLine: boolean, depth: number): string | null => {
    if (typeof v === 'string') return isCleanText(v, multiLine) ? null : path || '/';
    if (v === null || typeof v !== 'object') return null;
    if (depth >= maxDepth) return `${path}/<too deep>`;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const bad = walk(v[i], `${path}/${i}`, multiLine, depth + 1);
        if (bad) return bad;
      }
      return null;
    }
    for (const [k, child] of Object.entries(v)) {
      if (!isCleanText(k, false)) return `${path}/<key>`;
      const bad = walk(child, `${path}/${k}`, multiLine || MULTI_LINE_FIELDS.has(k), depth + 1);
      if (bad) return bad;
    }
    return null;
  };
  return walk(value, '', false, 0);
}

/**
 * The operator-editable pages (`/user/agreement`, `/user/aboutUs`): name → one text per language.
 * Bodies are plain text (paragraphs separated by blank lines), never HTML, so nothing an operator
 * types can run in a member's browser.
 */
export const PAGE_NAMES = ['agreement', 'aboutUs'] as const;
export type PageName = (typeof PAGE_NAMES)[number];
/** The languages every text exists in (`tw` the default). */
export const PAGE_LANGS = ['tw', 'en'] as const;
export type PageLang = (typeof PAGE_LANGS)[number];
/** Longest page body in characters (a privacy agreement runs to a few thousand). */
export const PAGE_BODY_MAX = 20_000;

export const pageReq = z.object({ name: z.enum(PAGE_NAMES) });
/** One page in one language; `updatedAt` null for the text shipped with the app. */
export const pageTextSchema = z.object({
  lang: z.enum(PAGE_LANGS),
  title: z.string(),
  body: z.string(),
  updatedAt: z.string().nullable(),
});
/** A page in both languages (the client shows the one matching its language). */
export const pageRes = z.object({ name: z.enum(PAGE_NAMES), texts: z.array(pageTextSchema) });
export const adminPagesRes = z.array(pageRes);
export const savePageReq = z.object({
  name: z.enum(PAGE_NAMES),
  lang: z.enum(PAGE_LANGS),
  title: z.string().trim().min(1).max(100),
  body: z.string().trim().min(1).max(PAGE_BODY_MAX),
});
