/** Ratio display (src/risk/format.ts): exact from integer basis points, sign kept. */
import { describe, expect, it } from 'vitest';
import { formatBps } from '../../src/risk/format';

describe('formatBps', () => {
  it.each([
    [13_000, '130.00%'],
    [12_999, '129.99%'],
    [11_005, '110.05%'],
    [5, '0.05%'],
    [0, '0.00%'],
    [-305, '-3.05%'],
    [-3_000, '-30.00%'],
    [null, '--'],
    [undefined, '--'],
    [1.5, '--'],
  ])('%s → %s', (bps, text) => {
    expect(formatBps(bps as number | null | undefined)).toBe(text);
  });
});
