/** Language choice: the two app languages and switching between them (stored as `lang`). */
import i18next from 'i18next';
import type { Lang } from './format';
import { STORAGE_KEYS, writeItem } from './storage';

export const LANGS: readonly Lang[] = ['tw', 'en'];
export const DEFAULT_LANG: Lang = 'tw';

export function applyDocumentLang(lang: Lang): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lang === 'tw' ? 'zh-Hant-TW' : 'en';
}

export function changeLang(lang: Lang): void {
  writeItem(STORAGE_KEYS.lang, lang);
  applyDocumentLang(lang);
  void i18next.changeLanguage(lang);
}
