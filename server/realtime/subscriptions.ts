/**
 * The gateway's subscriptions (gateway.ts): `sub` and `unsub` of a connection, with the limits
 * and cost accounting of each (WS_MAX_STREAMS per channel, limits.ts costs per connection and
 * per address, the address's snapshot bucket) and the snapshot answer — at once for quotes,
 * depth and trades, after the shared candle fetch for candles, deferred while over budget.
 *
 * Units: costs in limits.ts streamCost units. Errors: refusals are answered as `error` messages
 * (`productNotFound`, `tooManySubscriptions`, `tooFrequent`); a failed candle fetch rejects
 * the promise subscribe returns (gateway.ts logs it).
 */
import type { CandlePeriod } from '../../contract/market';
import { streamId, WS_MAX_STREAMS, type Channel } from '../../contract/realtime';
import type { Conn, GatewayState, Stream } from './gateway-state';
import { streamCost } from './limits';
import { defer, sendable, sendStreamParts } from './outbound';
import { dropIfUnused, ensureStream, fetchCandles } from './registry';
import { candleSnapshotText, errorText, syncSnapshot } from './streams';

/** Adds c to the stream's subscribers and charges its cost (once); clears a missed delta. */
export function attach(c: Conn, s: Stream): void {
  s.subs.add(c);
  if (!c.streams.has(s)) {
    c.streams.add(s);
    c.held[s.channel]++;
    const cost = streamCost(s.channel, s.period);
    c.cost += cost;
    c.share.cost += cost;
  }
  c.missed.delete(s);
}

/**
 * Why a `sub` of `symbol` is refused (an error key), or null when it is accepted: not tradable,
 * beyond WS_MAX_STREAMS or a cost limit (a new stream; `room` and `adding` count this `sub`'s
 * earlier symbols), or its snapshot beyond the address's bucket.
 */
function refusal(
  g: GatewayState,
  c: Conn,
  symbol: string,
  held: boolean,
  room: number,
  adding: number,
  cost: number,
): 'productNotFound' | 'tooManySubscriptions' | 'tooFrequent' | null {
  if (!g.feed.isTradable(symbol)) return 'productNotFound';
  if (
    !held &&
    (room <= 0 ||
      c.cost + adding + cost > g.limits.costPerConnection ||
      c.share.cost + adding + cost > g.limits.costPerAddress)
  ) {
    g.counters.refusedSubscriptions++;
    return 'tooManySubscriptions';
  }
  if (!c.share.takeSnapshot(g.now(), cost)) {
    g.counters.refusedSnapshots++;
    return 'tooFrequent';
  }
  return null;
}

/**
 * The streams of a `sub` that pass refusal() (created when new), in symbol order without
 * repeats; an `error` text is pushed to `parts` (stream null in `of`) per refused symbol.
 */
function screen(
  g: GatewayState,
  c: Conn,
  channel: Channel,
  symbols: string[],
  period: CandlePeriod | undefined,
  parts: string[],
  of: Array<Stream | null>,
): Stream[] {
  const accepted: Stream[] = [];
  let room = WS_MAX_STREAMS[channel] - c.held[channel];
  const cost = streamCost(channel, period);
  let adding = 0;
  for (const symbol of new Set(symbols)) {
    const known = g.streams.get(streamId(channel, symbol, period));
    const held = known !== undefined && c.streams.has(known);
    const refused = refusal(g, c, symbol, held, room, adding, cost);
    if (refused) {
      parts.push(errorText(refused));
      of.push(null);
    } else {
      if (!held) {
        room--;
        adding += cost;
      }
      accepted.push(ensureStream(g, channel, symbol, period));
    }
  }
  return accepted;
}

/** Answers a `sub` at once, except candle snapshots: then a promise of the answer. */
export function subscribe(
  g: GatewayState,
  c: Conn,
  channel: Channel,
  symbols: string[],
  period: CandlePeriod | undefined,
): Promise<void> | undefined {
  const parts: string[] = [];
  const of: Array<Stream | null> = [];
  const accepted = screen(g, c, channel, symbols, period, parts, of);
  if (accepted.length > 0 && !sendable(g, c)) {
    // Over budget: subscribe now, snapshot once drained (no fetch, no text built now).
    for (const s of accepted) {
      if (s.channel !== 'candles' && s.subs.size === 0) syncSnapshot(g.feed, s); // primes a new stream
      attach(c, s);
      defer(g, c, s);
      g.counters.deferredSnapshots++;
    }
    accepted.length = 0;
  }
  if (channel === 'candles' && accepted.length > 0) return subscribeCandles(g, c, accepted, parts, of);
  for (const s of accepted) {
    const text = syncSnapshot(g.feed, s);
    if (text) {
      parts.push(text);
      of.push(s);
    }
    attach(c, s);
  }
  sendStreamParts(g, c, parts, of);
  return undefined;
}

/** Fetches candle snapshots, then subscribes and answers (with `parts` already built). */
async function subscribeCandles(
  g: GatewayState,
  c: Conn,
  accepted: Stream[],
  parts: string[],
  of: Array<Stream | null>,
): Promise<void> {
  for (const s of accepted) s.pending++;
  const data = await Promise.all(accepted.map((s) => fetchCandles(g, s)));
  // From here to the send: one synchronous turn (seq read, subscription registered).
  accepted.forEach((s, i) => {
    s.pending--;
    if (c.closed) return dropIfUnused(g, s);
    parts.push(candleSnapshotText(s, data[i]!));
    of.push(s);
    attach(c, s);
  });
  sendStreamParts(g, c, parts, of);
}

/** Removes c from the stream, refunds its cost, and deletes the stream when unused. */
export function unsubscribe(g: GatewayState, c: Conn, s: Stream): void {
  s.subs.delete(c);
  if (c.streams.delete(s)) {
    c.held[s.channel]--;
    const cost = streamCost(s.channel, s.period);
    c.cost -= cost;
    c.share.cost -= cost;
  }
  c.missed.delete(s);
  if (c.missed.size === 0) g.resyncing.delete(c);
  dropIfUnused(g, s);
}
