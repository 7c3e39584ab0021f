/**
 * A page of market/list for the market list's tests: page `n` of `size` rows holding `symbols`
 * (quotes with only their symbol), of a list `total` long, ranked at `rankedAt`, on a replayed
 * 2025-05-02 in continuous trading.
 */
import type { ResOf } from '../../../contract/api';
import type { Quote } from '../../../contract/market';
import { replayClock } from './replay-clock';

export const rankingPage = (
  n: number,
  size: number,
  symbols: string[],
  total: number,
  rankedAt = 1,
): ResOf<'market/list'> => ({
  items: symbols.map((symbol) => ({ symbol }) as Quote),
  namesEn: {},
  total,
  page: n,
  pageSize: size,
  clock: replayClock('2025-05-02'),
  rankedAt,
  replayDate: '2025-05-02',
  final: false,
});
