/**
 * Up/down colours (product-spec §1 "Colour convention"): for TWD instruments a rise is red and
 * a fall green; for USD the opposite. Flat is neutral grey.
 */
export type Currency = 'TWD' | 'USD';
export type Direction = 'up' | 'down' | 'flat';

/** Each meets WCAG AA 4.5:1 as text on white and under white text (the change pills); --up/--down in styles.css. */
export const RED = '#cf1322';
export const GREEN = '#0a7d3c';
export const FLAT = '#6b6b6b';

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
