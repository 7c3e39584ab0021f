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

export const en = { ...coreEn, ...moreEn, ...adminEn };
export const tw = { ...coreTw, ...moreTw, ...adminTw };
