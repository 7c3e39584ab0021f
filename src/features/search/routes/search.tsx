/**
 * /home/search: the search box and its results (product-spec §2). The text lives in the URL
 * (`?q=`, replaced as the member types, SEARCH_DEBOUNCE_MS after the last key), so coming back
 * from a detail shows the same results. Results come ranked from search/query with their quotes
 * (rows paint at once), are virtualized, and only the rows on screen stream live prices. Each row
 * has the watchlist star; tapping a row opens the detail and records it in the member's history.
 */
import { DotLoading, Input } from 'antd-mobile';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Virtuoso } from 'react-virtuoso';
import { SEARCH_LIMIT_DEFAULT, SEARCH_QUERY_MAX } from '../../../../contract/search';
import { MarketStatusBar } from '../../../live/components/status-bar';
import { useSeedQuotes } from '../../../live/hooks';
import { useVisibleQuotes } from '../../../live/visible-rows';
import { SearchIcon } from '../../../ui/icons';
import { NoData } from '../../../ui/no-data';
import { namesEnOfHits, recordNamesEn } from '../../../live/names-en';
import { Page, useBack } from '../../../ui/page';
import { useSearchInstrumentsQuery } from '../api/search-api';
import { RESULT_ROW_HEIGHT_PX, ResultRow } from '../components/result-row';
import { useOpenResult } from '../components/use-open-result';
import '../search.css';

/** Wall ms after the last keystroke before the query is sent. */
export const SEARCH_DEBOUNCE_MS = 200;

export function SearchPage() {
  const { t } = useTranslation();
  const back = useBack();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [text, setText] = useState(q);
  useEffect(() => {
    if (text === q) return;
    const timer = setTimeout(() => setParams(text ? { q: text } : {}, { replace: true }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, q, setParams]);

  const query = q.trim();
  const { data, isFetching, isError } = useSearchInstrumentsQuery(
    { q: query, limit: SEARCH_LIMIT_DEFAULT },
    { skip: !query },
  );
  const shown = query && data ? data : undefined;
  useSeedQuotes(shown?.quotes);
  useEffect(() => {
    if (shown) recordNamesEn(namesEnOfHits(shown.items));
  }, [shown]);
  const symbols = useMemo(() => (shown?.items ?? []).map((h) => h.symbol), [shown]);
  const onRange = useVisibleQuotes(symbols);
  const open = useOpenResult();

  return (
    <Page title={t('search.title')} className="search-page">
      <div className="sticky-head search-head">
        <div className="search-box">
          <div className="search-field" data-testid="search-input">
            <SearchIcon />
            <Input
              value={text}
              onChange={setText}
              maxLength={SEARCH_QUERY_MAX}
              placeholder={t('search.placeholder')}
              autoFocus={!q}
              clearable
              aria-label={t('search.placeholder')}
              enterKeyHint="search"
            />
          </div>
          <button type="button" className="link-button" onClick={back} data-testid="search-cancel">
            {t('common.cancel')}
          </button>
        </div>
        <MarketStatusBar replayDate={shown?.quotes[0]?.replayDate} />
        {shown && shown.total > 0 && (
          <div className="quote-head search-count" data-testid="search-count">
            <span>
              {shown.total > shown.items.length
                ? t('search.countOf', { shown: shown.items.length, total: shown.total })
                : t('search.count', { count: shown.total })}
            </span>
            <span>{t('market.colLast')}</span>
            <span>{t('market.colChange')}</span>
            <span>{t('market.colPct')}</span>
          </div>
        )}
      </div>
      {!query ? (
        <p className="hint-text center-pad">{t('search.hint')}</p>
      ) : !shown && isFetching ? (
        <div className="center-fill">
          <DotLoading color="primary" />
        </div>
      ) : isError ? (
        <NoData />
      ) : shown && shown.items.length === 0 ? (
        <div data-testid="search-empty">
          <NoData />
          <p className="hint-text center-pad">{t('search.none', { q: query })}</p>
        </div>
      ) : (
        <Virtuoso
          useWindowScroll
          data={symbols}
          computeItemKey={(_, s) => s}
          fixedItemHeight={RESULT_ROW_HEIGHT_PX}
          rangeChanged={onRange}
          itemContent={(_, symbol) => <ResultRow symbol={symbol} onOpen={open} />}
        />
      )}
    </Page>
  );
}
