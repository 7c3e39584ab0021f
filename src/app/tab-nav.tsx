/**
 * The bottom TabBar of the five top-level screens (Home, Trade, Market, Follow orders, Mine). Its
 * own chunk: the first screen (/login/start) has no tab bar.
 */
import { TabBar } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { FollowIcon, HomeIcon, MarketIcon, MineIcon, TradeIcon } from '../ui/icons';
import { TAB_PATHS } from './tab-paths';

const ICONS = [
  <HomeIcon key="h" />,
  <TradeIcon key="t" />,
  <MarketIcon key="m" />,
  <FollowIcon key="f" />,
  <MineIcon key="u" />,
];
const TITLES = ['tabs.home', 'tabs.trade', 'tabs.market', 'tabs.follow', 'tabs.mine'] as const;

/** The TabBar, on the current tab. */
export default function TabNav() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <TabBar activeKey={location.pathname} onChange={(key) => navigate(key)} safeArea>
      {TAB_PATHS.map((path, i) => (
        <TabBar.Item
          key={path}
          icon={ICONS[i]}
          title={t(TITLES[i]!)}
          data-testid={`tab-${path.split('/')[1]}`}
        />
      ))}
    </TabBar>
  );
}
