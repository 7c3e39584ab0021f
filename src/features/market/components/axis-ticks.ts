/**
 * Axis labels that fit the chart (klinecharts `createTicks`): klinecharts places the time axis's
 * labels every few bars and centres each on its bar, so the first or last one can hang over the
 * pane's edge and be cut ("09:0", "2025-0"); such a label is dropped, its neighbours still date
 * the bars.
 */

/** A tick as klinecharts gives it: pixel position along the axis and its label. */
export interface TickLike {
  coord: number;
  text: string;
}

/**
 * The ticks whose label, centred on `coord`, lies wholly inside 0…`extent` px (`widthOf`: the
 * label's width in px). Order kept.
 */
export function ticksInside<T extends TickLike>(
  ticks: readonly T[],
  extent: number,
  widthOf: (text: string) => number,
): T[] {
  return ticks.filter((t) => {
    const half = widthOf(t.text) / 2;
    return t.coord - half >= 0 && t.coord + half <= extent;
  });
}

let measure: CanvasRenderingContext2D | null | undefined;

/**
 * Width in px of an axis label in klinecharts' default tick font (12 px Helvetica Neue); where no
 * canvas can measure (tests), 7 px a character, a digit's width in that font rounded up.
 */
export function tickTextWidth(text: string): number {
  if (measure === undefined) {
    try {
      measure = document.createElement('canvas').getContext('2d');
    } catch {
      measure = null;
    }
    if (measure) measure.font = '12px Helvetica Neue';
  }
  return measure ? Math.ceil(measure.measureText(text).width) : text.length * 7;
}
