/**
 * The root shell: page column capped at 750 px, the current route, and the bottom TabBar on the
 * four top-level screens (Home, Trade, Market, Mine; Follow orders is not built, so it is not
 * shown). Starts the market status bridge and applies the site configuration's title.
 */
import { SpinLoading, TabBar } from 'antd-mobile';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration, useLocation, useNavigate } from 'react-router-dom';
import { useConfigQuery } from '../api/api';
import { useMarketStatusBridge } from '../market/hooks';
import { LEGACY_KEYS, writeItem } from '../lib/storage';
import { HomeIcon, MarketIcon, MineIcon, TradeIcon } from '../ui/icons';

export const TABS = [
  { key: '/home/index', title: 'tabs.home', icon: <HomeIcon /> },
  { key: '/position/position', title: 'tabs.trade', icon: <TradeIcon /> },
  { key: '/market/market', title: 'tabs.market', icon: <MarketIcon /> },
  { key: '/user/usercenter', title: 'tabs.mine', icon: <MineIcon /> },
] as const;

const TAB_PATHS: ReadonlySet<string> = new Set(TABS.map((t) => t.key));

export function Loading() {
  return (
    <div className="center-fill">
      <SpinLoading color="primary" />
    </div>
  );
}

function useSiteConfig(): void {
  const { data } = useConfigQuery();
  useEffect(() => {
    if (data?.title) document.title = data.title;
  }, [data?.title]);
}

export function Shell() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  useMarketStatusBridge();
  useSiteConfig();

  useEffect(
    () => () => {
      for (const k of LEGACY_KEYS) writeItem(k, null);
    },
    [],
  );

  const showTabs = TAB_PATHS.has(location.pathname);
  return (
    <div className={`app-column ${showTabs ? 'with-tabs' : ''}`}>
      <ScrollRestoration />
      <main className="app-main">
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
      {showTabs && (
        <nav className="app-tabbar">
          <TabBar activeKey={location.pathname} onChange={(key) => navigate(key)} safeArea>
            {TABS.map((tab) => (
              <TabBar.Item
                key={tab.key}
                icon={tab.icon}
                title={t(tab.title)}
                data-testid={`tab-${tab.key.split('/')[1]}`}
              />
            ))}
          </TabBar>
        </nav>
      )}
    </div>
  );
}
