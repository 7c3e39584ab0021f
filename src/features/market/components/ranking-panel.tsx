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
import { rankingArgsOf } from '../ranking-args';
import { MarketFilters } from './market-filters';
import { RankingHead, RankingList, columnsFor } from './ranking-list';
import '../market.css';

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
