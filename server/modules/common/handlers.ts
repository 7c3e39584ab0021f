/** common/config: site configuration as {name, value} items (product-spec §7). */
import { siteConfig } from '../../db/schema';
import type { Handlers } from '../../http/context';

/** common/config: defaults merged with the operator's site_config rows (rows win). */
export const commonHandlers: Pick<Handlers, 'common/config'> = {
  async 'common/config'(_body, ctx) {
    const rows = await ctx.db.select().from(siteConfig);
    const merged = new Map<string, string>([
      ['title', 'TW Trade'],
      ['logo', '/logo.svg'],
      ['currency', 'TWD'],
      ['leverages', ctx.config.leverages.join(',')],
      ['marketClock', ctx.config.marketClock],
    ]);
    for (const r of rows) merged.set(r.name, r.value);
    return [...merged].map(([name, value]) => ({ name, value }));
  },
};
