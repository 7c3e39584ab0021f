/**
 * /market/stockHot/stockList (product-spec §2 "Market" routes): the full hot-stocks list, the
 * whole market ranked by volume (default), turnover, gainers or losers, with the same filters as
 * the market tab.
 */
import { useTranslation } from 'react-i18next';
import type { MarketSort } from '../../../../contract/constants';
import { MarketStatusBar } from '../../../live/components/status-bar';
import { Page } from '../../../ui/page';
import { RankingPanel } from '../components/ranking-panel';

const HOT_SORTS: readonly MarketSort[] = ['volume', 'turnover', 'gainers', 'losers'];

export function HotStocksPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('ranking.hotTitle')}>
      <RankingPanel sorts={HOT_SORTS} fallback="volume" top={<MarketStatusBar />} />
    </Page>
  );
}
