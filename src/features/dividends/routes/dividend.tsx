/**
 * /common/dividend: the ex-dividend calendar on the replay: the exchanges' ex-rights/ex-dividend
 * events from today's replayed date on (upcoming) or before it (recent), each with its cash
 * dividend per share, the close before and the exchange's reference price; a row opens the
 * stock's dividend history (/common/dividend3).
 */
import { Tabs } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { DIVIDEND_CALENDAR_TABS, type DividendCalendarTab } from '../../../../contract/dividends';
import { Page } from '../../../ui/page';
import { useDividendCalendarInfiniteQuery } from '../api/dividends-api';
import { InfiniteList } from '../../../ui/infinite-list';
import { DividendNav, EventRow } from '../components/parts';
import '../dividends.css';

function CalendarList({ tab }: { tab: DividendCalendarTab }) {
  const { t } = useTranslation();
  const q = useDividendCalendarInfiniteQuery(tab);
  const today = q.data?.pages[0]?.today;
  return (
    <>
      {today && (
        <div className="dividend-note muted small" data-testid="dividend-today">
          {t('dividend.replayToday', { date: today })}
        </div>
      )}
      <InfiniteList
        q={q}
        testId={`dividend-calendar-${tab}`}
        row={(e) => <EventRow key={`${e.symbol}-${e.exDate}`} e={e} />}
      />
    </>
  );
}

export function DividendCalendarPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab: DividendCalendarTab = params.get('tab') === 'recent' ? 'recent' : 'upcoming';
  return (
    <Page title={t('dividend.title')}>
      <DividendNav current="calendar" />
      <Tabs
        activeKey={tab}
        onChange={(k) => setParams({ tab: k }, { replace: true })}
        className="sticky-tabs"
      >
        {DIVIDEND_CALENDAR_TABS.map((k) => (
          <Tabs.Tab key={k} title={<span data-testid={`dividend-tab-${k}`}>{t(`dividend.tab.${k}`)}</span>} />
        ))}
      </Tabs>
      <CalendarList key={tab} tab={tab} />
    </Page>
  );
}
