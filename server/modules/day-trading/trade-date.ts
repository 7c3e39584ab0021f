/**
 * The market's date now: the Asia/Taipei date of the market clock (`feed.clock().now`: in replay
 * mode the replayed day the feed presents as today, in exchange mode the real date). Used for the
 * day-trade tax rate shown and previewed (the reduced rate ends on a date). Whether a close is a
 * same-day offset is decided per instrument by the engine's `tradeDate(symbol)`.
 */
import { taipeiIsoDate } from '../../../contract/trading-session';
import type { MarketFeed } from '../../market/feed';

/** ISO date (YYYY-MM-DD, Asia/Taipei) of the market clock now. */
export function currentTradeDate(feed: Pick<MarketFeed, 'clock'>): string {
  return taipeiIsoDate(feed.clock().now);
}
