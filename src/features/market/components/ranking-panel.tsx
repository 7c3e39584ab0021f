/**
 * Sort capsules, filter bar, column header and the virtualized ranking, with the sort and the
 * filters kept in the URL (`sort`, `market`, `type`, `industry`) so a list can be linked and
 * survives going back. Used by the market tab (/market/market) and the hot-stocks list
 * (/market/stockHot/stockList).
 */
import { CapsuleTabs } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { MarketSort } from '../../../../contract/constants';
import type { RankingArgs } from '../ranking-window';
import { MarketFilters, type MarketFilterValue } from './market-filters';
import { RankingHead, RankingList, columnsFor } from './ranking-list';
import '../market.css';

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

export function RankingPanel({
  sorts,
  fallback,
  top,
}: {
  sorts: readonly MarketSort[];
  fallback: MarketSort;
  /** Shown above the sort capsules inside the sticky header (the status bar, the tabs). */
  top?: ReactNode;
}) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const { args, filters } = rankingArgsOf(params, sorts, fallback);
  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next, { replace: true });
  };
  const columns = columnsFor(args.sort);
  return (
    <>
      <div className="sticky-head">
        {top}
        <CapsuleTabs activeKey={args.sort} onChange={(k) => update({ sort: k })} className="sort-tabs">
          {sorts.map((s) => (
            <CapsuleTabs.Tab
              key={s}
              title={<span data-testid={`market-sort-${s}`}>{t(`market.sort.${s}`)}</span>}
            />
          ))}
        </CapsuleTabs>
        <MarketFilters
          value={filters}
          onChange={(f) => update({ market: f.market, type: f.kind, industry: f.industry })}
        />
        <RankingHead columns={columns} />
      </div>
      <RankingList key={JSON.stringify(args)} args={args} />
    </>
  );
}
