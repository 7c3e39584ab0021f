/** common/config: site configuration as {name, value} items (product-spec §3 "Site configuration", §7). */
import { siteConfig } from '../../db/schema';
import type { Handlers } from './context';
import { SETTING_DEFAULTS } from './settings';

/**
 * common/config: the operator's site settings over their defaults (title, logo, deposit hours,
 * withdrawal limits in TWD minor units; common/settings.ts), then the server's fixed facts
 * (currency, leverages, market clock). Stored rows win over defaults.
 */
export const commonHandlers: Pick<Handlers, 'common/config'> = {
  async 'common/config'(_body, ctx) {
    const rows = await ctx.db.select().from(siteConfig);
    const merged = new Map<string, string>(Object.entries(SETTING_DEFAULTS));
    merged.set('currency', 'TWD');
    merged.set('leverages', ctx.config.leverages.join(','));
    merged.set('marketClock', ctx.config.marketClock);
    merged.set('openingMarginBps', String(ctx.config.openingMarginBps));
    for (const r of rows) merged.set(r.name, r.value);
    return [...merged].map(([name, value]) => ({ name, value }));
  },
};
