/**
 * A quote's price-limit rule, in a module without zod: the stock detail's head figures
 * (src/features/market/detail-figures.ts) are drawn into the static shell before the app loads
 * (src/app/shell-fill.ts), and importing the rule from ./market.ts built every schema there, in
 * the shell's task and before the app had turned zod's `new Function` probe off
 * (src/lib/zod-no-eval.ts), which the Content-Security-Policy reported as a violation.
 */
import type { Quote } from './market';

/** Whether daily price limits apply to the quote's day (Quote.priceLimits, absent: true). */
export const quoteHasLimits = (q: Pick<Quote, 'priceLimits'>): boolean => q.priceLimits !== false;
