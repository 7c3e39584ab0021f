/**
 * What the stock detail's head shows for a quote (pure, no React): the app's head
 * (routes/market-detail.tsx `DetailHead`) and the static shell filled before the app has loaded
 * (src/app/shell-fill.ts) both draw these, so the two never differ.
 *
 * TWD colours (up red, down green; product-spec §9): the last price and the change by the change
 * against the reference price (the previous close), the open, high, low and limits by their own
 * difference to it.
 */
import type { Quote } from '../../../contract/market';
import { quoteHasLimits } from '../../../contract/quote-limits';
import { changeColor } from '../../lib/colors';
import {
  formatCompactMinor,
  formatLots,
  formatMinor,
  formatPercent,
  formatSignedMinor,
  type Lang,
} from '../../lib/format';

/** One figure of the head's grid: its string key (detail.*), value and colour (none: default). */
export interface DetailStat {
  key: 'open' | 'prevClose' | 'high' | 'low' | 'volume' | 'turnover' | 'limitUp' | 'limitDown';
  value: string;
  color?: string;
}

/** The head's texts (prices in TWD, formatted) and colours. */
export interface DetailFigures {
  /** Last price ('' while the quote is unknown). */
  last: string;
  /** "+1.50 (+0.17%)". */
  change: string;
  color: string;
  /** In the grid's order. */
  stats: DetailStat[];
}

/** The head of `quote` (undefined: not known yet) in `lang`. */
export function detailFigures(quote: Quote | undefined, lang: Lang): DetailFigures {
  const change = quote ? quote.lastMinor - quote.prevCloseMinor : 0;
  const ref = quote?.prevCloseMinor ?? 0;
  const colorOf = (v: number | undefined) => (v !== undefined ? changeColor(v - ref) : undefined);
  const limited = !quote || quoteHasLimits(quote);
  return {
    last: quote ? formatMinor(quote.lastMinor) : '',
    change: `${formatSignedMinor(change)} (${formatPercent(change, ref)})`,
    color: changeColor(change),
    stats: [
      { key: 'open', value: formatMinor(quote?.openMinor), color: colorOf(quote?.openMinor) },
      {
        key: 'prevClose',
        // An estimated reference (Quote.referenceEstimated) is marked ≈.
        value: `${quote?.referenceEstimated ? '≈' : ''}${formatMinor(quote?.prevCloseMinor)}`,
      },
      { key: 'high', value: formatMinor(quote?.highMinor), color: colorOf(quote?.highMinor) },
      { key: 'low', value: formatMinor(quote?.lowMinor), color: colorOf(quote?.lowMinor) },
      { key: 'volume', value: formatLots(quote?.volumeShares, lang) },
      { key: 'turnover', value: formatCompactMinor(quote?.turnoverMinor, lang) },
      // No daily limit today (a foreign-index ETF, a new listing's first 5 days): '--'.
      limited
        ? { key: 'limitUp', value: formatMinor(quote?.limitUpMinor), color: colorOf(quote?.limitUpMinor) }
        : { key: 'limitUp', value: '--' },
      limited
        ? {
            key: 'limitDown',
            value: formatMinor(quote?.limitDownMinor),
            color: colorOf(quote?.limitDownMinor),
          }
        : { key: 'limitDown', value: '--' },
    ],
  };
}
