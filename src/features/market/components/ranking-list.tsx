/**
 * A whole-market ranking, virtualized with react-virtuoso over the list's full length (~2,300
 * rows), under a line saying whose figures it ranks (today's simulated intraday figures while the
 * replayed session runs, the real day's once it has closed: market/list `final`): the order comes from `useRankingWindow` (pages around the visible rows, polled every
 * second, held while touched or scrolling), and only the visible rows plus OVERSCAN_ROWS either
 * side are subscribed to the worker's quote stream (re-subscribed 200 ms after the range settles,
 * so rows that scrolled out are unsubscribed). Rows are keyed by index: a re-sort updates rows in
 * place instead of moving them.
 */
import { DotLoading } from 'antd-mobile';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { Virtuoso } from 'react-virtuoso';
import { QUOTE_ROW_HEIGHT_PX } from '../../../live/components/quote-row';
import { useQuoteStream } from '../../../live/hooks';
import { NoData } from '../../../ui/no-data';
import { OVERSCAN_ROWS, useRankingWindow, type RankingArgs } from '../ranking-window';
import { columnsFor, type RankingColumns } from '../ranking-figures';
import { PlaceholderRow, RankingRow, useRankingRowText } from './ranking-row';

const VISIBLE_DEBOUNCE_MS = 200;

export { columnsFor } from '../ranking-figures';

/**
 * The line above the list saying whose figures it ranks: the replayed day's simulated intraday
 * figures (`final` false) or the real day's once its session closed. The static shell draws the
 * same line from a template (src/app/static-shell.tsx, filled by src/app/shell-fill.ts).
 */
export function RankingFiguresNote({ replayDate, final }: { replayDate: string; final: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="ranking-figures-note" data-testid="ranking-figures" data-final={final ? 'true' : 'false'}>
      {final
        ? t('ranking.figuresFinal', { date: replayDate })
        : t('ranking.figuresIntraday', { date: replayDate })}
    </div>
  );
}

/** The column header matching `columnsFor`. */
export function RankingHead({ columns }: { columns: RankingColumns }) {
  const { t } = useTranslation();
  return (
    <div className={`quote-head ranking-row cols-${columns}`} data-testid="ranking-head">
      <span>{t('market.colName')}</span>
      <span>{t('market.colLast')}</span>
      {columns === 'change' && <span>{t('market.colChange')}</span>}
      <span>{t('market.colPct')}</span>
      {columns === 'volume' && <span>{t('ranking.colVolume')}</span>}
      {columns === 'turnover' && <span>{t('ranking.colTurnover')}</span>}
    </div>
  );
}

export function RankingList({ args }: { args: RankingArgs }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [range, setRange] = useState({ startIndex: 0, endIndex: 15 });
  const { view, error, setScrolling, holdHandlers } = useRankingWindow(args, range);
  const columns = columnsFor(args.sort);
  const rowText = useRankingRowText();

  const [visible, setVisible] = useState<string[]>([]);
  useEffect(() => {
    const timer = setTimeout(() => {
      if (!view) return setVisible([]);
      const from = Math.max(0, range.startIndex - OVERSCAN_ROWS);
      const to = Math.min(view.total, range.endIndex + OVERSCAN_ROWS + 1);
      const out = new Set<string>();
      for (let i = from; i < to; i++) {
        const s = view.symbols[i];
        if (s) out.add(s);
      }
      setVisible([...out]);
    }, VISIBLE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [range, view]);
  useQuoteStream(visible);

  const open = useCallback((symbol: string) => navigate(`/market/marketDetail?symbol=${symbol}`), [navigate]);
  // The end-of-list footer only once the end is in range: drawn before the rows have measured,
  // it would sit under the heads and then jump ~2,000 rows down (a layout shift on first load).
  const atEnd = !!view && range.endIndex >= view.total - 1;
  const components = useMemo(
    () => (atEnd ? { Footer: () => <div className="list-footer">{t('common.noMore')}</div> } : {}),
    [atEnd, t],
  );

  if (!view)
    return error ? (
      <NoData />
    ) : (
      <div className="center-fill">
        <DotLoading color="primary" />
      </div>
    );
  if (view.total === 0) return <NoData />;

  return (
    <div {...holdHandlers} data-testid="ranking-list" data-total={view.total}>
      {view.replayDate && <RankingFiguresNote replayDate={view.replayDate} final={!!view.final} />}
      <Virtuoso
        useWindowScroll
        totalCount={view.total}
        fixedItemHeight={QUOTE_ROW_HEIGHT_PX}
        increaseViewportBy={200}
        rangeChanged={setRange}
        isScrolling={setScrolling}
        itemContent={(index) => {
          const symbol = view.symbols[index];
          return symbol ? (
            <RankingRow symbol={symbol} columns={columns} text={rowText} onOpen={open} />
          ) : (
            <PlaceholderRow />
          );
        }}
        components={components}
      />
    </div>
  );
}
