/**
 * i18next with `tw` (Traditional Chinese, default) and `en`. `?lang=` in the URL (before or
 * after the hash) overrides and is stored as `lang` (product-spec §9).
 */
import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../../locales/en.json';
import tw from '../../locales/tw.json';
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

export function detectLang(): Lang {
  const fromUrl = typeof location !== 'undefined' ? langFromUrl(location) : null;
  if (fromUrl) {
    writeItem(STORAGE_KEYS.lang, fromUrl);
    return fromUrl;
  }
  const stored = readItem(STORAGE_KEYS.lang);
  return isLang(stored) ? stored : DEFAULT_LANG;
}

export function setupI18n(lang: Lang = detectLang()): i18n {
  if (!i18next.isInitialized) {
    void i18next.use(initReactI18next).init({
      resources: { tw: { translation: tw }, en: { translation: en } },
      lng: lang,
      fallbackLng: DEFAULT_LANG,
      supportedLngs: [...LANGS],
      interpolation: { escapeValue: false },
      initAsync: false,
    });
  }
  applyDocumentLang(lang);
  return i18next;
}
