/**
 * i18next with `tw` (Traditional Chinese, default) and `en`. `?lang=` in the URL (before or
 * after the hash) overrides and is stored as `lang` (product-spec §9).
 *
 * Each language's strings (and antd-mobile's matching locale) are their own chunk, fetched by a
 * small i18next backend when the language is first used: the first screen loads one language,
 * never both. A language comes in two parts: `locales/{lang}.json` holds only what the first
 * screen and the shell need (app, common, start, conn, lang, tabs, errors, success, market,
 * phase); every other screen's strings are `locales/more/{lang}.json`, fetched after first paint
 * and awaited by each route's chunk (`ensureAllStrings`), so no screen ever shows a raw key. There is no fallback language to load as well: tests/unit/client-locales.test.ts
 * keeps both files complete.
 */
import i18next, { type BackendModule, type i18n, type ResourceKey } from 'i18next';
import type { Locale as AntdLocale } from 'antd-mobile/es/locales/base';
import { initReactI18next } from 'react-i18next';
import type { Lang } from '../lib/format';
import { applyDocumentLang, DEFAULT_LANG, LANGS } from '../lib/lang';
import { readItem, STORAGE_KEYS, writeItem } from '../lib/storage';

const isLang = (v: string | null | undefined): v is Lang => v === 'tw' || v === 'en';

/** `lang` from `?lang=` in the search part or in the hash's query part. */
export function langFromUrl(loc: { search: string; hash: string }): Lang | null {
  const fromSearch = new URLSearchParams(loc.search).get('lang');
  if (isLang(fromSearch)) return fromSearch;
  const q = loc.hash.indexOf('?');
  if (q >= 0) {
    const fromHash = new URLSearchParams(loc.hash.slice(q + 1)).get('lang');
    if (isLang(fromHash)) return fromHash;
  }
  return null;
}

/** The language to start in: `?lang=` (then stored), else the stored `lang`, else tw. */
export function detectLang(): Lang {
  const fromUrl = typeof location !== 'undefined' ? langFromUrl(location) : null;
  if (fromUrl) {
    writeItem(STORAGE_KEYS.lang, fromUrl);
    return fromUrl;
  }
  const stored = readItem(STORAGE_KEYS.lang);
  return isLang(stored) ? stored : DEFAULT_LANG;
}

interface LocaleChunk {
  strings: ResourceKey;
  antd: AntdLocale;
}

/** One dynamic import per language: its strings and antd-mobile's locale load together. */
const LOADERS: Record<Lang, () => Promise<LocaleChunk>> = {
  tw: () =>
    Promise.all([import('../../locales/tw.json'), import('antd-mobile/es/locales/zh-TW')]).then(([s, a]) => ({
      strings: s.default,
      antd: a.default,
    })),
  en: () =>
    Promise.all([import('../../locales/en.json'), import('antd-mobile/es/locales/en-US')]).then(([s, a]) => ({
      strings: s.default,
      antd: a.default,
    })),
};

const antdLocales: Partial<Record<Lang, AntdLocale>> = {};

const MORE: Record<Lang, () => Promise<{ default: ResourceKey }>> = {
  tw: () => import('../../locales/more/tw.json'),
  en: () => import('../../locales/more/en.json'),
};
const moreLoaded: Partial<Record<Lang, Promise<void>>> = {};
/** Past the first screen: a language switched to later loads both parts at once. */
let wantMore = false;

/**
 * Starts downloading the rest of the strings for `lang` (default: the starting language) without
 * adding them yet: a deep link past the landing screen fetches them alongside the app's chunks,
 * and its screen's `ensureAllStrings` then finds the module loaded.
 */
export function prefetchAllStrings(lang: Lang = detectLang()): void {
  void MORE[lang]().catch(() => undefined);
}

/**
 * Loads the rest of the member app's strings for `lang` (default: the current language) into
 * i18next, once. Route chunks await it; main.tsx starts it after first paint.
 */
export function ensureAllStrings(lang: string = i18next.language): Promise<void> {
  if (!isLang(lang)) return Promise.resolve();
  wantMore = true;
  return (moreLoaded[lang] ??= MORE[lang]().then((m) => {
    i18next.addResourceBundle(lang, 'translation', m.default, true, false);
  }));
}

/** Extra top-level string groups per language, loaded with the language (the console's `admin.*`). */
let extensions: Array<Record<Lang, () => Promise<{ default: ResourceKey }>>> = [];

/**
 * Adds strings only another entry point needs (admin.html's `admin.*`), so the member app's
 * first screen never downloads them. Call before setupI18n.
 */
export function extendLocales(loaders: Record<Lang, () => Promise<{ default: ResourceKey }>>): void {
  extensions = [...extensions, loaders];
}

/** antd-mobile's locale for a language once it is loaded (undefined: antd's built-in default). */
export function antdLocaleOf(lang: string): AntdLocale | undefined {
  return isLang(lang) ? antdLocales[lang] : undefined;
}

const lazyLocales: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, _namespace, callback) {
    if (!isLang(language)) {
      callback(null, {});
      return;
    }
    const more = wantMore ? [MORE[language]()] : [];
    if (wantMore) moreLoaded[language] ??= Promise.resolve();
    Promise.all([LOADERS[language](), ...more, ...extensions.map((e) => e[language]())]).then(
      ([chunk, ...extra]) => {
        antdLocales[language] = chunk.antd;
        callback(null, Object.assign({}, chunk.strings, ...extra.map((m) => m.default)));
      },
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null),
    );
  },
};

/**
 * Initialises i18next once. Without `resources`, the language's chunk is fetched and the promise
 * resolves when its strings are in (render after it). Tests pass `resources` to start
 * synchronously with no fetch.
 */
export function setupI18n(
  lang: Lang = detectLang(),
  resources?: Partial<Record<Lang, ResourceKey>>,
): Promise<i18n> {
  applyDocumentLang(lang);
  if (i18next.isInitialized) return Promise.resolve(i18next);
  const common = {
    lng: lang,
    fallbackLng: false as const,
    supportedLngs: [...LANGS],
    interpolation: { escapeValue: false },
    // The app renders after the strings are in and switches language only once the new ones
    // are: nothing is ever waiting for strings, so no component needs to suspend for them.
    react: { useSuspense: false },
  };
  if (resources) {
    void i18next.use(initReactI18next).init({
      ...common,
      resources: Object.fromEntries(Object.entries(resources).map(([l, r]) => [l, { translation: r }])),
      initAsync: false,
    });
    return Promise.resolve(i18next);
  }
  return i18next
    .use(lazyLocales)
    .use(initReactI18next)
    .init(common)
    .then(() => i18next);
}
