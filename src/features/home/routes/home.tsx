/**
 * /home/index: the TAIEX figure (official daily close with its date), shortcuts to the areas that
 * exist, a few live quotes and the newest news (a lazy section). Every figure comes from the API
 * or the feed. Pulling the screen down refetches the index, the quotes, the news and the unread
 * notices count (src/ui/pull-refresh.tsx).
 *
 * First load: index.html carries this screen's frame prerendered (vite.config.ts `staticShell`,
 * route `home`), its index card filled from an early answer before the app has loaded
 * (src/app/shell-fill.ts fillHomeShell), so it paints like the market screen; the shortcuts are
 * plain buttons in a CSS grid (no UI-kit grid), the news and the bell lazy sections.
 */
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { lazy, Suspense, useCallback, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import { api, useIndicesQuery, useQuotesQuery } from '../../../api/api';
import { MarketStatusBar } from '../../../live/components/status-bar';
import { QuoteRow } from '../../../live/components/quote-row';
import { useQuoteStream, useSeedQuotes } from '../../../live/hooks';
import {
  CreditIcon,
  DepositIcon,
  EtfIcon,
  HoldingsIcon,
  MineIcon,
  RecordsIcon,
  SearchIcon,
  ServiceIcon,
  StarIcon,
  SubscribeIcon,
  TradeIcon,
} from '../../../ui/icons';
import { Page } from '../../../ui/page';
import { PullRefresh } from '../../../ui/pull-refresh';
import { IndexCard } from '../components/index-card';

/** The newest news items, in their own chunk (src/features/news): the home chunk stays light. */
const NewsSection = lazy(() => import('../../news').then((m) => ({ default: m.NewsSection })));

/** Bellwethers shown on the home screen: TSMC, Hon Hai, MediaTek. */
const HOME_SYMBOLS = ['2330', '2317', '2454'];

/**
 * The spec's home shortcuts in its order (product-spec §2 "Home shortcuts"; where each leads and
 * how the unlabeled ones are read: docs/glossary.md), then search, ETFs, dividends and the
 * watchlist. "Treasury stock" (read as 庫存股, the shares held) is left out: it opened the same
 * holdings list as "stock holdings", two tiles for one screen.
 */
const SHORTCUTS: { key: string; to: string; icon: ReactNode }[] = [
  { key: 'bidding', to: '/market/bidding', icon: <TradeIcon /> },
  { key: 'subscribe', to: '/market/subscribe', icon: <SubscribeIcon /> },
  { key: 'funds', to: '/user/FundingDetails', icon: <RecordsIcon /> },
  { key: 'deposit', to: '/user/recharge', icon: <DepositIcon /> },
  { key: 'withdraw', to: '/user/withdraw', icon: <DepositIcon /> },
  { key: 'service', to: '/user/service', icon: <ServiceIcon /> },
  { key: 'dayTrading', to: '/common/dayTrading', icon: <TradeIcon /> },
  { key: 'lending', to: '/common/lending', icon: <HoldingsIcon /> },
  { key: 'assets', to: '/wallet/index', icon: <RecordsIcon /> },
  { key: 'credit', to: '/user/credit', icon: <CreditIcon /> },
  { key: 'contracts', to: '/position/position?tab=terminated', icon: <RecordsIcon /> },
  { key: 'redeem', to: '/home/coupons', icon: <SubscribeIcon /> },
  { key: 'margin', to: '/common/margin', icon: <TradeIcon /> },
  { key: 'holdings', to: '/position/position?tab=holdings', icon: <HoldingsIcon /> },
  { key: 'member', to: '/user/usercenter', icon: <MineIcon /> },
  { key: 'search', to: '/home/searchIndex', icon: <SearchIcon /> },
  { key: 'etf', to: '/home/etf', icon: <EtfIcon /> },
  { key: 'dividend', to: '/common/dividend', icon: <RecordsIcon /> },
  { key: 'watchlist', to: '/market/favo', icon: <StarIcon /> },
];

/** The notices bell (unread count), a lazy chunk of its own (src/ui/notice-bell.tsx). */
const NoticeBell = lazy(() => import('../../../ui/notice-bell'));

/** The tags of the lazy sections' data: the news (src/features/news) and the bell's unread count. */
const sectionTags = api.enhanceEndpoints({ addTagTypes: ['News', 'Notices'] });

/**
 * Refetches everything the home screen shows: its own queries (`own`, awaited), and the lazy
 * sections' news and unread count through their tags; resolves when every query then running
 * has settled, so "loading" lasts until the screen is fresh.
 */
function useHomeRefresh(...own: Array<() => PromiseLike<unknown>>): () => Promise<unknown> {
  const dispatch = useDispatch<ThunkDispatch<unknown, unknown, UnknownAction>>();
  return async () => {
    dispatch(sectionTags.util.invalidateTags(['News', 'Notices']));
    await Promise.all(own.map((refetch) => refetch()));
    await Promise.all(dispatch(api.util.getRunningQueriesThunk()));
  };
}

export function HomePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: snap, refetch: refetchQuotes } = useQuotesQuery(HOME_SYMBOLS);
  const { refetch: refetchIndices } = useIndicesQuery();
  useSeedQuotes(snap?.items);
  useQuoteStream(HOME_SYMBOLS);
  const open = useCallback((s: string) => navigate(`/market/marketDetail?symbol=${s}`), [navigate]);
  const refresh = useHomeRefresh(refetchIndices, refetchQuotes);

  return (
    <Page
      title={t('app.name')}
      back={false}
      right={
        <Suspense fallback={null}>
          <NoticeBell />
        </Suspense>
      }
    >
      <PullRefresh onRefresh={refresh}>
        <MarketStatusBar replayDate={snap?.items[0]?.replayDate} />
        <IndexCard />
        <section className="card">
          <div className="shortcut-grid">
            {SHORTCUTS.map((s) => (
              <button
                type="button"
                key={s.key}
                className="shortcut"
                onClick={() => navigate(s.to)}
                data-testid={`shortcut-${s.key}`}
              >
                <span className="shortcut-icon">{s.icon}</span>
                <span className="shortcut-label">{t(`home.shortcut.${s.key}`)}</span>
              </button>
            ))}
          </div>
        </section>
        <section className="card">
          <div className="card-title-row">
            <h3 className="card-title">{t('home.quotes')}</h3>
            <span className="nav-link" role="link" onClick={() => navigate('/market/market')}>
              {t('common.more')}
            </span>
          </div>
          {HOME_SYMBOLS.map((s) => (
            <QuoteRow key={s} symbol={s} onOpen={open} />
          ))}
        </section>
        <Suspense fallback={null}>
          <NewsSection />
        </Suspense>
      </PullRefresh>
    </Page>
  );
}
