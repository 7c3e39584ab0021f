/**
 * Up/down colours (product-spec §1 "Colour convention"): for TWD instruments a rise is red and
 * a fall green; for USD the opposite. Flat is neutral grey.
 */
export type Currency = 'TWD' | 'USD';
export type Direction = 'up' | 'down' | 'flat';

export const RED = '#e5322d';
export const GREEN = '#12a150';
export const FLAT = '#8c8c8c';

export function direction(change: number | null | undefined): Direction {
  if (change === null || change === undefined || !Number.isFinite(change) || change === 0) return 'flat';
  return change > 0 ? 'up' : 'down';
}

/** Colour of a change in the given currency's convention. */
export function changeColor(change: number | null | undefined, currency: Currency = 'TWD'): string {
  const d = direction(change);
  if (d === 'flat') return FLAT;
  const upIsRed = currency === 'TWD';
  return (d === 'up') === upIsRed ? RED : GREEN;
}

/** The pair of colours for charts: [up, down]. */
export function upDownColors(currency: Currency = 'TWD'): { up: string; down: string } {
  return currency === 'TWD' ? { up: RED, down: GREEN } : { up: GREEN, down: RED };
}
