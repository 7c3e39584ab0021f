/**
 * What one row of a market ranking shows for a quote, and how it is drawn into a row's DOM (no
 * React): the app's row (components/ranking-row.tsx) and the static shell's rows filled before the
 * app has loaded (src/app/shell-fill.ts) both draw these, so the two never differ.
 *
 * TWD colours (up red, down green; product-spec §9); an instrument with no trade in the replayed
 * day shows its reference price in grey and "No trade" (`notTradedLabel`) instead of 0 %; one
 * whose reference price is an estimate (a new listing's first day, a capital change, an ETF split
 * whose published reference the data lack) carries a mark, and is not ranked among gainers or
 * losers (server/modules/market/rankings.ts).
 */
import type { MarketSort } from '../../../contract/constants';
import type { Quote } from '../../../contract/market';
import { changeColor } from '../../lib/colors';
import {
  formatCompactMinor,
  formatLots,
  formatMinor,
  formatPercent,
  formatSignedMinor,
  type Lang,
} from '../../lib/format';

/** Which figures follow the last price: change and change %, change % and volume (lots), or change % and turnover. */
export type RankingColumns = 'change' | 'volume' | 'turnover';

/** The columns a sort shows: volume and turnover lists show their own figure. */
export function columnsFor(sort: MarketSort | undefined): RankingColumns {
  return sort === 'volume' ? 'volume' : sort === 'turnover' ? 'turnover' : 'change';
}

/** The grey of an instrument not traded in the replayed day. */
export const NOT_TRADED_GREY = '#6b6b6b';

/** A row's texts (prices in TWD, formatted) and its colour (CSS). */
export interface RankingFigures {
  traded: boolean;
  /** The reference is an estimate (Quote.referenceEstimated): the row is marked, its change % too. */
  estimated: boolean;
  color: string;
  /** Last price, or '--' while the quote is unknown. */
  last: string;
  /** Signed change (columns 'change' only). */
  change: string;
  /** Change %, or the not-traded label. */
  pct: string;
  /** Volume in lots (columns 'volume') or compact turnover (columns 'turnover'); '' otherwise. */
  amount: string;
}

/** The figures of `q` (undefined: not known yet) under `columns`, in `lang`. */
export function rankingFigures(
  q: Quote | undefined,
  columns: RankingColumns,
  lang: Lang,
  notTradedLabel: string,
): RankingFigures {
  const traded = q ? q.traded : true;
  const change = q ? q.lastMinor - q.prevCloseMinor : 0;
  return {
    traded,
    estimated: q?.referenceEstimated === true,
    color: traded ? changeColor(change) : NOT_TRADED_GREY,
    last: q ? formatMinor(q.lastMinor) : '--',
    change: columns === 'change' ? (q && traded ? formatSignedMinor(change) : '--') : '',
    pct: !q ? '--' : traded ? formatPercent(change, q.prevCloseMinor) : notTradedLabel,
    amount:
      columns === 'volume'
        ? q
          ? formatLots(q.volumeShares, lang)
          : '--'
        : columns === 'turnover'
          ? q
            ? formatCompactMinor(q.turnoverMinor, lang)
            : '--'
          : '',
  };
}

/**
 * Sets an element's only text when it differs (no-op when the element is missing): in its one
 * Text node where it has one (as React updates a text child), so no node is replaced.
 */
function setText(el: Element | null, value: string): void {
  if (!el) return;
  const node = el.firstChild;
  if (node && node === el.lastChild && node.nodeType === Node.TEXT_NODE) {
    if (node.nodeValue !== value) node.nodeValue = value;
  } else if (el.textContent !== value) el.textContent = value;
}

/**
 * Draws `f` into a ranking row's DOM: the app's row (components/ranking-row.tsx, for each new
 * quote after its render) or a copy of the shell's prerendered row (src/app/shell-fill.ts).
 * Sets the name (`title`), the last price and the change in `f.color`, the change % on a pill of
 * that colour, the volume or turnover, `data-traded="false"` for an instrument not traded and
 * `data-ref-estimated="true"` for one whose reference is an estimate (its mark shows, CSS).
 * Only the figures that differ from `shown` (what the row shows now) are written; all of them
 * without it.
 */
export function paintRankingFigures(
  row: HTMLElement,
  title: string,
  f: RankingFigures,
  shown?: RankingFigures,
): void {
  const last = row.querySelector<HTMLElement>('.quote-last');
  const change = row.querySelector<HTMLElement>('.quote-change');
  const pill = row.querySelector<HTMLElement>('.pct-pill');
  setText(row.querySelector('.quote-title'), title);
  if (f.last !== shown?.last) setText(last, f.last);
  if (f.change !== shown?.change) setText(change, f.change);
  if (f.pct !== shown?.pct) setText(pill, f.pct);
  if (f.amount !== shown?.amount) setText(row.querySelector('.quote-volume'), f.amount);
  if (f.color !== shown?.color) {
    last?.style.setProperty('color', f.color);
    change?.style.setProperty('color', f.color);
    pill?.style.setProperty('background', f.color);
  }
  if (f.traded !== shown?.traded) {
    if (f.traded) delete row.dataset.traded;
    else row.dataset.traded = 'false';
  }
  if (f.estimated !== shown?.estimated) {
    if (f.estimated) row.dataset.refEstimated = 'true';
    else delete row.dataset.refEstimated;
  }
}
