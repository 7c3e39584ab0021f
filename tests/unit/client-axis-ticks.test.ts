/**
 * The chart's time labels never hang over the pane's edge: a label centred on its bar that would
 * be cut at the left (the 1-minute chart's first) or the right (the day chart's last, under the
 * price axis) is dropped; those inside stay, in order.
 */
import { expect, it } from 'vitest';
import { ticksInside, tickTextWidth } from '../../src/features/market/components/axis-ticks';

const w7 = (s: string) => s.length * 7;

it('drops a first label cut at the left edge and a last one cut at the right', () => {
  const ticks = [
    { coord: 10, text: '09:01' }, // 35 px wide: −7.5 … 27.5
    { coord: 120, text: '09:15' },
    { coord: 200, text: '09:29' },
    { coord: 318, text: '09:43' }, // 300.5 … 335.5 > 330
  ];
  expect(ticksInside(ticks, 330, w7).map((t) => t.text)).toEqual(['09:15', '09:29']);
});

it('keeps a label that just fits, and the day chart labels inside', () => {
  const day = [
    { coord: 35, text: '2025-03-14' }, // 70 px: 0 … 70
    { coord: 180, text: '2025-04-07' },
    { coord: 295, text: '2025-04-21' }, // 260 … 330
  ];
  expect(ticksInside(day, 330, w7)).toEqual(day);
  expect(ticksInside(day, 329, w7).map((t) => t.text)).toEqual(['2025-03-14', '2025-04-07']);
});

it('measures without a canvas at 7 px a character', () => {
  expect(tickTextWidth('09:30')).toBe(35);
});
