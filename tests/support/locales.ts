/**
 * The app's strings as it shows them, for the end-to-end tests: `locales/<lang>.json` with
 * `locales/more` and `locales/admin` merged in group by group (a group may be split across the
 * files, as i18next merges them). The keys themselves are checked by the locales unit test.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export type Lang = 'tw' | 'en';

const read = (file: string) => JSON.parse(readFileSync(path.resolve(file), 'utf8'));

/** `b`'s strings added into `a`, group by group. */
const deepMerge = (a: Record<string, any>, b: Record<string, any>): Record<string, any> => {
  const out = { ...a };
  for (const [k, v] of Object.entries(b))
    out[k] = v && typeof v === 'object' && out[k] && typeof out[k] === 'object' ? deepMerge(out[k], v) : v;
  return out;
};

const locale = (lang: Lang) =>
  [`locales/more/${lang}.json`, `locales/admin/${lang}.json`].reduce(
    (all, file) => deepMerge(all, read(file)),
    read(`locales/${lang}.json`),
  );

const LOCALES: Record<Lang, unknown> = { tw: locale('tw'), en: locale('en') };

/** The translation of `key` ("fundFlow.deposit") in `lang`; throws when it is missing. */
export function tr(lang: Lang, key: string): string {
  const v = key.split('.').reduce<any>((o, k) => o?.[k], LOCALES[lang]);
  if (typeof v !== 'string') throw new Error(`no ${lang} string for ${key}`);
  return v;
}
