/**
 * The constants the app's entry needs before its first paint (src/app/entry.ts, src/api/early.ts),
 * alone in their module: the first-paint bundle then carries none of contract/constants.ts's
 * others (which re-exports these; the first paint's budget: scripts/bundle-budget.mjs).
 */

/** Base path of the REST API (product-spec §7). */
export const API_BASE = '/api/vue/';

/** Server-side sorts of the market list (`market/list`): code order, then the rankings. */
export const MARKET_SORTS = ['all', 'gainers', 'losers', 'volume', 'turnover'] as const;
