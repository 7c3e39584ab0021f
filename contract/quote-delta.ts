/**
 * Quotes sent incrementally: at each flush the gateway sends a stream's subscribers only the
 * fields of the quote that changed since the quote it sent at the previous flush (a tick changes
 * about 6 of 20: last, bid, ask, volume, turnover, ts); the worker applies the delta to the quote
 * it holds. Halves the bytes the worker parses at 20,000 quotes/s. Zod-free so the worker bundle
 * can import it.
 *
 * Invariant (fuzz-tested in tests/unit/market-quote-delta.test.ts):
 *   applyQuoteDelta(a, diffQuote(a, b)) deep-equals b, for any quotes a and b of one symbol.
 */
import type { Quote } from './market';

/** The fields of a quote that changed; `symbol` never does (it names the stream). */
export type QuoteDelta = Partial<Omit<Quote, 'symbol'>>;

/** Every field a delta may carry, in the Quote's order. */
export const QUOTE_DELTA_FIELDS = [
  'name',
  'kind',
  'lastMinor',
  'openMinor',
  'highMinor',
  'lowMinor',
  'prevCloseMinor',
  'limitUpMinor',
  'limitDownMinor',
  'bidMinor',
  'askMinor',
  'volumeShares',
  'turnoverMinor',
  'ts',
  'replayDate',
  'phase',
  'traded',
  'priceLimits',
  'referenceEstimated',
  'taxKind',
] as const satisfies readonly (keyof QuoteDelta)[];

/** The fields of `next` that differ from `prev` (same symbol). */
export function diffQuote(prev: Quote, next: Quote): QuoteDelta {
  const out: Record<string, unknown> = {};
  for (const k of QUOTE_DELTA_FIELDS) if (prev[k] !== next[k]) out[k] = next[k];
  return out as QuoteDelta;
}

const FIELDS: ReadonlySet<string> = new Set(QUOTE_DELTA_FIELDS);

/**
 * `prev` with the delta's fields. Throws on a delta that is not an object or names a field a
 * quote does not have (a message of another protocol version): the caller asks for a snapshot.
 * Written out field by field: an object literal of one shape costs the worker about a quarter of
 * `{...prev, ...delta}` (56 against 207 ns per delta in Node, at 36,000 deltas/s).
 */
export function applyQuoteDelta(prev: Quote, delta: unknown): Quote {
  if (typeof delta !== 'object' || delta === null || Array.isArray(delta))
    throw new Error('quote delta is not an object');
  for (const k in delta) if (!FIELDS.has(k)) throw new Error(`quote delta field ${k}`);
  const d = delta as QuoteDelta;
  return {
    symbol: prev.symbol,
    name: 'name' in d ? d.name! : prev.name,
    kind: 'kind' in d ? d.kind! : prev.kind,
    lastMinor: 'lastMinor' in d ? d.lastMinor! : prev.lastMinor,
    openMinor: 'openMinor' in d ? d.openMinor! : prev.openMinor,
    highMinor: 'highMinor' in d ? d.highMinor! : prev.highMinor,
    lowMinor: 'lowMinor' in d ? d.lowMinor! : prev.lowMinor,
    prevCloseMinor: 'prevCloseMinor' in d ? d.prevCloseMinor! : prev.prevCloseMinor,
    limitUpMinor: 'limitUpMinor' in d ? d.limitUpMinor! : prev.limitUpMinor,
    limitDownMinor: 'limitDownMinor' in d ? d.limitDownMinor! : prev.limitDownMinor,
    bidMinor: 'bidMinor' in d ? d.bidMinor! : prev.bidMinor,
    askMinor: 'askMinor' in d ? d.askMinor! : prev.askMinor,
    volumeShares: 'volumeShares' in d ? d.volumeShares! : prev.volumeShares,
    turnoverMinor: 'turnoverMinor' in d ? d.turnoverMinor! : prev.turnoverMinor,
    ts: 'ts' in d ? d.ts! : prev.ts,
    replayDate: 'replayDate' in d ? (d.replayDate as Quote['replayDate']) : prev.replayDate,
    phase: 'phase' in d ? d.phase! : prev.phase,
    traded: 'traded' in d ? d.traded! : prev.traded,
    priceLimits: 'priceLimits' in d ? d.priceLimits! : prev.priceLimits,
    referenceEstimated: 'referenceEstimated' in d ? d.referenceEstimated! : prev.referenceEstimated,
    taxKind: 'taxKind' in d ? d.taxKind! : prev.taxKind,
  };
}
