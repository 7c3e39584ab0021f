/**
 * /home/etf: every ETF of TWSE and TPEx (product-spec §1 "ETF"), from market/list with
 * `securityType: 'etf'`, filtered by category (equity, bond, leveraged, inverse, futures-based:
 * contract/market.ts ETF_CATEGORIES, by the code's suffix) and sorted by volume (most traded
 * first) or by code. Virtualized (~330 rows), with only the rows on screen streaming live prices;
 * a row opens the normal detail screen, where the ETF tick table and tax rate apply.
 */
import { CapsuleTabs } from 'antd-mobile';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ETF_CATEGORIES, type EtfCategory } from '../../../../contract/market';
import { MarketStatusBar } from '../../../live/components/status-bar';
import { PagedQuoteList } from '../../../live/components/paged-quote-list';
import { Page } from '../../../ui/page';
import { useEtfListInfiniteQuery, type EtfListArg } from '../api/etf-api';

/** The filter tabs: every ETF, then each category. */
const FILTERS = ['all', ...ETF_CATEGORIES] as const;
type Filter = (typeof FILTERS)[number];
/** Sorts offered: by volume (market/list 'volume') or by code ('all' is code order). */
const SORTS = ['volume', 'all'] as const;
type Sort = (typeof SORTS)[number];

/** The count line above the rows (inline: no stylesheet chunk for one rule). */
const COUNT_STYLE = { background: '#fafafa', padding: '6px 14px' };

function EtfList({ arg }: { arg: EtfListArg }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useEtfListInfiniteQuery(arg);
  const open = useCallback((s: string) => navigate(`/market/marketDetail?symbol=${s}`), [navigate]);
  return (
    <PagedQuoteList
      list={list}
      onOpen={open}
      emptyTestId="etf-empty"
      header={(total) => (
        <div className="hint-text" style={COUNT_STYLE} data-testid="etf-count">
          {t('etf.count', { count: total })}
        </div>
      )}
    />
  );
}

export function EtfPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const fp = params.get('filter');
  const filter: Filter = (FILTERS as readonly string[]).includes(fp ?? '') ? (fp as Filter) : 'all';
  const sp = params.get('sort');
  const sort: Sort = (SORTS as readonly string[]).includes(sp ?? '') ? (sp as Sort) : 'volume';
  const setParam = (k: string, v: string) => {
    const next = new URLSearchParams(params);
    next.set(k, v);
    setParams(next, { replace: true });
  };
  const arg = useMemo<EtfListArg>(
    () => ({ sort, category: filter === 'all' ? null : (filter as EtfCategory) }),
    [sort, filter],
  );

  return (
    <Page
      title={t('etf.title')}
      right={
        <span
          className="nav-link"
          role="button"
          onClick={() => setParam('sort', sort === 'volume' ? 'all' : 'volume')}
          data-testid="etf-sort"
          data-sort={sort}
        >
          {t(sort === 'volume' ? 'etf.sortByVolume' : 'etf.sortByCode')}
        </span>
      }
    >
      <div className="sticky-head">
        <MarketStatusBar />
        <CapsuleTabs activeKey={filter} onChange={(k) => setParam('filter', k)} className="sort-tabs">
          {FILTERS.map((f) => (
            <CapsuleTabs.Tab
              key={f}
              title={<span data-testid={`etf-filter-${f}`}>{t(`etf.filter.${f}`)}</span>}
            />
          ))}
        </CapsuleTabs>
        <div className="quote-head">
          <span>{t('market.colName')}</span>
          <span>{t('market.colLast')}</span>
          <span>{t('market.colChange')}</span>
          <span>{t('market.colPct')}</span>
        </div>
      </div>
      <EtfList key={`${filter}/${sort}`} arg={arg} />
    </Page>
  );
}
