/**
 * Instruments for the public-subscription tests on the replay: every announced code (seasoned
 * offerings price from their replayed closes; codes the window never trades list on a comparable's
 * path), the window's comparables (server/market/listing-proxies.ts findComparables: stocks that
 * list inside the window, 2025-04-28 … 2025-06-13) and the harness's usual three.
 */
import { readIpoAnnouncements } from '../../../server/market/import';
import { TEST_SYMBOLS } from '../harness';

/** The window's first listings with 20+ traded days from window day 10 on (TWSE 5, TPEx 7). */
export const COMPARABLES = [
  '6909',
  '6918',
  '6936',
  '6944',
  '7749',
  '1295',
  '6498',
  '6597',
  '6925',
  '7642',
  '7723',
  '7743',
];

/** TEST_SYMBOLS, every announced code and the comparables. */
export async function ipoTestSymbols(): Promise<string[]> {
  const codes = (await readIpoAnnouncements()).map((a) => a.code);
  return [...new Set([...TEST_SYMBOLS, ...codes, ...COMPARABLES])];
}
