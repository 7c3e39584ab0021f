/**
 * Every string of each language, as the running app has them once loaded: the first screen's
 * groups (locales/{lang}.json), the rest of the member app (locales/more/{lang}.json) and the
 * operator console's (locales/admin/{lang}.json). Tests pass these as i18next resources.
 */
import adminEn from '../../../locales/admin/en.json';
import adminTw from '../../../locales/admin/tw.json';
import coreEn from '../../../locales/en.json';
import coreTw from '../../../locales/tw.json';
import moreEn from '../../../locales/more/en.json';
import moreTw from '../../../locales/more/tw.json';

type Tree = { [k: string]: string | Tree };

/** Deep merge, later groups winning: what i18next's addResourceBundle(…, deep = true) does. */
function merge(...trees: Tree[]): Tree {
  const out: Tree = {};
  for (const t of trees)
    for (const [k, v] of Object.entries(t)) {
      const have = out[k];
      out[k] = typeof v === 'object' && typeof have === 'object' ? merge(have, v) : v;
    }
  return out;
}

export const en = merge(coreEn, moreEn, adminEn) as typeof coreEn & typeof moreEn & typeof adminEn;
export const tw = merge(coreTw, moreTw, adminTw) as typeof coreTw & typeof moreTw & typeof adminTw;
