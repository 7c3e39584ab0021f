/**
 * The instrument name to show in a language (no React, so the static shell's first-paint code can
 * use it too; src/live/names-en.ts keeps the names pages bring).
 */
import type { Lang } from '../lib/format';

/** What an instrument name is built from: the Chinese short name and the English one, if any. */
export interface NamedInstrument {
  name: string;
  nameEn?: string | null;
}

/**
 * The name to show: the exchange's English short name in English when there is one, else the
 * Chinese short name (always in Chinese).
 */
export function instrumentName(inst: NamedInstrument, lang: Lang): string {
  return lang === 'en' && inst.nameEn ? inst.nameEn : inst.name;
}
