/**
 * The ranking a market list URL names (pure; no React, so index.html's entry can ask for the list
 * before the app loads, src/app/entry.ts): sort and filters from the URL's search parameters
 * (`sort`, `market`, `type`, `industry`; unknown values fall back to the defaults), and the body of
 * the first market/list request for it (the one the list makes first, ./ranking-window.ts).
 */
import type { ReqOf } from '../../../contract/api';
import type { MarketSort } from '../../../contract/constants';
import type { MarketFilterValue } from './components/market-filters';

/** Ranking and filters of one list (market/list without paging). */
export type RankingArgs = Omit<ReqOf<'market/list'>, 'page' | 'pageSize'>;

/** Rows per fetched page of a ranking. */
export const PAGE_SIZE = 50;

/** The ranking and filters a URL's search parameters name (unknown values: the defaults). */
export function rankingArgsOf(
  params: URLSearchParams,
  sorts: readonly MarketSort[],
  fallback: MarketSort,
): { args: RankingArgs; filters: MarketFilterValue } {
  const s = params.get('sort') ?? '';
  const sort = (sorts as readonly string[]).includes(s) ? (s as MarketSort) : fallback;
  const m = params.get('market');
  const market = m === 'TWSE' || m === 'TPEx' ? m : '';
  const k = params.get('type');
  const kind = k === 'stock' || k === 'etf' ? k : '';
  const industry = kind === 'etf' ? '' : (params.get('industry') ?? '').slice(0, 40);
  const args: RankingArgs = { sort };
  if (market) args.market = market;
  if (kind) args.securityType = kind;
  if (industry) args.industry = industry;
  return { args, filters: { market, kind, industry } };
}

/** The body of the list's first request for `args`: its first page (the rows a screen shows first). */
export function firstPageBody(args: RankingArgs): ReqOf<'market/list'> {
  return { ...args, page: 1, pageSize: PAGE_SIZE };
}
