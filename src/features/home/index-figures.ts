/**
 * The home screen's index card figures from one market/indices item, drawn the same way by the
 * app's card (./components/index-card.tsx) and, before the app has loaded, by the static shell's
 * filler (src/app/shell-fill.ts fillHomeShell), so nothing changes when the app replaces the shell.
 * Light on purpose (the shell's filler loads it before the app): the format and colour helpers only.
 */
import type { IndexItem } from '../../../contract/market';
import { changeColor } from '../../lib/colors';
import { formatMinor, formatPercent, formatSignedMinor } from '../../lib/format';

/** The code the template card is prerendered with (the index the home card shows first). */
export const HOME_INDEX_CODE = 'TAIEX';

/** The index the card shows: the TAIEX (code TAIEX or t00), else the first. */
export function homeIndex(items: readonly IndexItem[] | undefined): IndexItem | undefined {
  return items?.find((i) => i.code === HOME_INDEX_CODE || i.code === 't00') ?? items?.[0];
}

/**
 * Which label the card shows under the figures: `estimate` while the session runs (the server
 * computes the TAIEX from the replayed prices), `official` after the close; undefined before the
 * answer, when neither label shows (the CSS of `.index-card-basis`).
 */
export function basisOf(ix: IndexItem | undefined): 'estimate' | 'official' | undefined {
  if (!ix) return undefined;
  return ix.estimate ? 'estimate' : 'official';
}

/**
 * Last value ("22,307.31"), change with percentage ("+123.45 (0.56%)") and their colour (TWD
 * convention: up red, down green), from minor units.
 */
export function indexFigures(ix: IndexItem): { last: string; change: string; color: string } {
  const change = ix.lastMinor - ix.prevCloseMinor;
  return {
    last: formatMinor(ix.lastMinor),
    change: `${formatSignedMinor(change)} (${formatPercent(change, ix.prevCloseMinor)})`,
    color: changeColor(change),
  };
}
