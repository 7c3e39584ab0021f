/**
 * The market as the trading engine, the risk monitor and copy trading see it around a corporate
 * action (runner.ts): the feed, except that an instrument whose current session has an action
 * not yet applied is held at its last quote from before it. Its new quotes are not passed on and
 * `quote()` answers the last one passed on (none: undefined), so positions in the old units are
 * only ever marked, matched and closed at old prices; once the session is applied the latest
 * quote of each held instrument is passed on (one quote: the engine's day change and opening match
 * work from the newest quote). Every other instrument passes straight through.
 */
import type { Quote } from '../../../contract/market';
import type { MarketFeed } from '../../market/feed';

/** What the gate asks the runner. */
export interface GateControl {
  /** Whether `symbol` has any action at all (only those instruments are ever held). */
  watches(symbol: string): boolean;
  /** Whether `symbol`'s quotes must be held now (an action of the current session not applied). */
  mustHold(symbol: string): boolean;
  /** Start applying now (called once when the gate starts holding). */
  kick(): void;
}

/** `feed` behind the gate, and the release the runner calls after each run. */
export function gateFeed(feed: MarketFeed, control: GateControl): { feed: MarketFeed; release: () => void } {
  const listeners = new Set<(q: Quote) => void>();
  /** Newest quote of each held instrument. */
  const held = new Map<string, Quote>();
  /** Last quote passed on of each watched instrument. */
  const passed = new Map<string, Quote>();
  const emit = (q: Quote) => {
    for (const fn of listeners) fn(q);
  };
  feed.onQuote((q) => {
    if (!control.watches(q.symbol)) return emit(q);
    if (held.has(q.symbol) || control.mustHold(q.symbol)) {
      const first = held.size === 0;
      held.set(q.symbol, q);
      if (first) control.kick();
      return;
    }
    passed.set(q.symbol, q);
    emit(q);
  });
  const release = () => {
    for (const [symbol, q] of [...held]) {
      if (control.mustHold(symbol)) continue;
      held.delete(symbol);
      const now = feed.quote(symbol) ?? q;
      passed.set(symbol, now);
      emit(now);
    }
  };
  const gated: MarketFeed = {
    ...feed,
    quote: (symbol) => (held.has(symbol) ? passed.get(symbol) : feed.quote(symbol)),
    onQuote(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
  return { feed: gated, release };
}
