/**
 * The market as the trading engine, the risk monitor and copy trading see it around a corporate
 * action (runner.ts): the feed, except that an instrument whose current session has an action
 * not yet applied is held: its new quotes are not passed on and `quote()` answers undefined (no
 * price), so while its positions change units one transaction at a time nothing matches, closes,
 * margin-calls or liquidates them at a price of the wrong units (the risk monitor skips an
 * unmarked account; the engine answers priceUnavailable). Once the session is applied the
 * instrument's latest quote is passed on (one quote: the engine's day change and opening match
 * work from the newest one). Every other instrument passes straight through.
 */
import type { Quote } from '../../../contract/market';
import type { MarketFeed } from '../../market/feed';

/** What the gate asks the runner. */
export interface GateControl {
  /** Whether `symbol` has any action at all (only those instruments are ever held). */
  watches(symbol: string): boolean;
  /** Whether `symbol`'s quotes must be held now (an action of the current session not applied). */
  mustHold(symbol: string): boolean;
  /** Start applying now (called when the gate starts holding). */
  kick(): void;
}

/** `feed` behind the gate, and the release the runner calls after each run. */
export function gateFeed(feed: MarketFeed, control: GateControl): { feed: MarketFeed; release: () => void } {
  const listeners = new Set<(q: Quote) => void>();
  const held = new Set<string>();
  const emit = (q: Quote) => {
    for (const fn of listeners) fn(q);
  };
  feed.onQuote((q) => {
    if (!control.watches(q.symbol)) return emit(q);
    if (held.has(q.symbol) || control.mustHold(q.symbol)) {
      const first = held.size === 0;
      held.add(q.symbol);
      if (first) control.kick();
      return;
    }
    emit(q);
  });
  const release = () => {
    for (const symbol of [...held]) {
      if (control.mustHold(symbol)) continue;
      held.delete(symbol);
      const q = feed.quote(symbol);
      if (q) emit(q);
    }
  };
  const gated: MarketFeed = {
    ...feed,
    quote: (symbol) => (held.has(symbol) ? undefined : feed.quote(symbol)),
    onQuote(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
  return { feed: gated, release };
}
