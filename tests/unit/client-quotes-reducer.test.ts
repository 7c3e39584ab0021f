import { describe, expect, it } from 'vitest';
import type { Quote } from '../../contract/market';
import {
  quoteBatchReceived,
  quoteCount,
  quoteOf,
  quoteReceivedAt,
  quotesReceived,
  quotesReducer,
} from '../../src/live/quotes-slice';
import { quote as harnessQuote } from './client-worker-harness';

/** The harness's quote, on another replay day when `replayDate` is given. */
const quote = (symbol: string, lastMinor: number, ts: number, replayDate?: string): Quote => ({
  ...harnessQuote(symbol, lastMinor, ts),
  ...(replayDate ? { replayDate } : {}),
});

describe('quotes reducer (hand-written, no Immer)', () => {
  it('adds new symbols once, replaces whole entities and keeps the others identical', () => {
    let s = quotesReducer(undefined, { type: '@@init' });
    s = quotesReducer(s, quotesReceived([quote('2330', 100_000, 1), quote('2317', 20_000, 1)]));
    const before2317 = quoteOf(s, '2317');
    expect(quoteReceivedAt(s, '2330')).toBeUndefined(); // a REST snapshot is not a stream receipt
    s = quotesReducer(
      s,
      quoteBatchReceived({
        items: [quote('2330', 100_500, 2), quote('2330', 101_000, 3)],
        receivedAt: [10, 11],
      }),
    );
    expect(quoteCount(s)).toBe(2);
    expect(quoteOf(s, '2330')!.lastMinor).toBe(101_000);
    expect(quoteOf(s, '2317')).toBe(before2317);
    expect(quoteReceivedAt(s, '2330')).toBe(11);
    expect(quoteReceivedAt(s, '2317')).toBeUndefined();
    expect(quoteOf(s, '9999')).toBeUndefined();

    // A stream receipt of an older quote updates its age only; the entity keeps its identity.
    const held2330 = quoteOf(s, '2330');
    const before = s;
    s = quotesReducer(s, quoteBatchReceived({ items: [quote('2330', 99_000, 1)], receivedAt: [12] }));
    expect(quoteOf(s, '2330')).toBe(held2330);
    expect(quoteReceivedAt(s, '2330')).toBe(12);
    expect(quoteReceivedAt(before, '2330')).toBe(11); // the previous state is untouched

    // A new symbol in a batch gets its own slot; the earlier state does not see it.
    s = quotesReducer(s, quoteBatchReceived({ items: [quote('0050', 15_000, 4)], receivedAt: [13] }));
    expect(quoteCount(s)).toBe(3);
    expect(quoteOf(s, '0050')!.lastMinor).toBe(15_000);
    expect(quoteOf(before, '0050')).toBeUndefined();
    expect(quoteOf(s, '2330')).toBe(held2330);
  });

  it('never rolls a price back within a replay day, but a new replay day wins', () => {
    let s = quotesReducer(undefined, quotesReceived([quote('2330', 100_000, 10)]));
    const held = s;
    s = quotesReducer(s, quotesReceived([quote('2330', 99_000, 5)]));
    expect(s).toBe(held);
    s = quotesReducer(s, quotesReceived([quote('2330', 98_000, 1, '2024-05-17')]));
    expect(quoteOf(s, '2330')!.lastMinor).toBe(98_000);
  });

  it('returns the same state for actions it does not handle and for empty batches', () => {
    const s = quotesReducer(undefined, quotesReceived([quote('2330', 100_000, 1)]));
    expect(quotesReducer(s, { type: 'other' })).toBe(s);
    expect(quotesReducer(s, quoteBatchReceived({ items: [], receivedAt: [] }))).toBe(s);
  });
});
