/**
 * server/modules/corporate-actions/gate.ts: an instrument whose session is not applied is held
 * (no quote passed on, no price), the runner is asked once, and on release its latest quote
 * goes out once; other instruments pass straight through.
 */
import { describe, expect, it } from 'vitest';
import type { Quote } from '../../contract/market';
import type { MarketFeed } from '../../server/market/feed';
import { gateFeed } from '../../server/modules/corporate-actions/gate';

function fakeFeed() {
  const fns = new Set<(q: Quote) => void>();
  const last = new Map<string, Quote>();
  const feed = {
    onQuote(fn: (q: Quote) => void) {
      fns.add(fn);
      return () => fns.delete(fn);
    },
    quote: (s: string) => last.get(s),
  } as unknown as MarketFeed;
  const push = (symbol: string, lastMinor: number) => {
    const q = { symbol, lastMinor } as Quote;
    last.set(symbol, q);
    for (const fn of fns) fn(q);
  };
  return { feed, push };
}

describe('corporate-action gate', () => {
  it('holds an instrument until its session is applied, then passes its latest quote once', () => {
    const { feed, push } = fakeFeed();
    let pending = true;
    let kicks = 0;
    const { feed: gated, release } = gateFeed(feed, {
      watches: (s) => s === '0050',
      mustHold: (s) => pending && s === '0050',
      kick: () => kicks++,
    });
    const seen: string[] = [];
    gated.onQuote((q) => seen.push(`${q.symbol}@${q.lastMinor}`));
    push('2330', 100_000);
    push('0050', 4_716);
    push('0050', 4_750);
    expect(seen).toEqual(['2330@100000']);
    expect(gated.quote('0050')).toBeUndefined();
    expect(gated.quote('2330')!.lastMinor).toBe(100_000);
    expect(kicks).toBe(1);
    release(); // still pending: stays held
    expect(seen).toHaveLength(1);
    pending = false;
    release();
    expect(seen).toEqual(['2330@100000', '0050@4750']);
    expect(gated.quote('0050')!.lastMinor).toBe(4_750);
    push('0050', 4_760);
    expect(seen.at(-1)).toBe('0050@4760');
  });
});
