/**
 * Quote deltas (contract/quote-delta.ts): applying the diff of two quotes to the first gives the
 * second, field for field, for any two quotes of one symbol; a delta carries exactly the fields
 * that changed; a delta naming a field a quote lacks is refused (the worker then asks for a
 * snapshot), and the realtime contract accepts deltas and refuses the symbol in one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Quote } from '../../contract/market';
import { applyQuoteDelta, diffQuote, QUOTE_DELTA_FIELDS } from '../../contract/quote-delta';
import { serverMessageSchema } from '../../contract/realtime';
import { quoteArb } from './support/arbitraries';

const quote = (symbol: string) => quoteArb([symbol]);

describe('quote deltas', () => {
  it('applyQuoteDelta(a, diffQuote(a, b)) equals b, and the delta holds only the changed fields', () => {
    fc.assert(
      fc.property(quote('2330'), quote('2330'), (a: Quote, b: Quote) => {
        const d = diffQuote(a, b);
        expect(applyQuoteDelta(a, d)).toEqual(b);
        const changed = QUOTE_DELTA_FIELDS.filter((k) => a[k] !== b[k]);
        expect(Object.keys(d).sort()).toEqual([...changed].sort());
        expect(applyQuoteDelta(a, diffQuote(a, a))).toEqual(a);
      }),
      { numRuns: 500 },
    );
  });

  it('a delta of another shape is refused, not merged', () => {
    fc.assert(
      fc.property(quote('2330'), (a: Quote) => {
        expect(() => applyQuoteDelta(a, { price: 1 })).toThrow(/field price/);
        expect(() => applyQuoteDelta(a, { symbol: '2317' })).toThrow(/field symbol/);
        expect(() => applyQuoteDelta(a, [1])).toThrow(/not an object/);
        expect(() => applyQuoteDelta(a, null)).toThrow(/not an object/);
      }),
      { numRuns: 5 },
    );
  });

  it('the realtime contract takes a delta of changed fields and refuses one that names the symbol', () => {
    const delta = { type: 'quote', kind: 'delta', symbol: '2330', seq: 2, data: { lastMinor: 1, ts: 2 } };
    expect(serverMessageSchema.safeParse(delta).success).toBe(true);
    expect(serverMessageSchema.safeParse({ ...delta, data: { symbol: '2317' } }).success).toBe(false);
    expect(serverMessageSchema.safeParse({ ...delta, kind: 'snapshot' }).success).toBe(false);
  });
});
