/**
 * /market/subscribe: public subscriptions in three tabs (open, upcoming, ended), each row with the
 * offer price (or when it will be set), the apply days on the replayed calendar, how the price
 * sits on the replayed market (the announcement's discount, the rule's, or a first listing), the
 * phase and the member's own state; a
 * row opens /market/subscribeDetail. The records link opens /market/subscribeRecord.
 */
import { Tabs } from 'antd-mobile';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { IPO_TABS, type IpoOffering, type IpoTab } from '../../../../contract/ipo';
import { selectLoggedIn } from '../../../api/session';
import { langOf } from '../../../lib/format';
import { instrumentName } from '../../../live/names-en';
import { LoginPrompt } from '../../../ui/login-prompt';
import { Page } from '../../../ui/page';
import { useIpoListInfiniteQuery } from '../api/ipo-api';
import { InfiniteList } from '../../../ui/infinite-list';
import { marketTypeLabel } from '../components/market-type';
import { PhaseTag, StatusTag } from '../components/parts';
import { priceText, pricingLabel } from '../components/pricing';
import '../ipo.css';

function OfferingRow({ o, onOpen }: { o: IpoOffering; onOpen: (id: number) => void }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="ipo-row" role="button" data-testid={`ipo-row-${o.id}`} onClick={() => onOpen(o.id)}>
      <div className="ipo-row-head">
        <span className="ipo-name">
          {instrumentName(o, langOf(i18n.language))} <span className="muted small">{o.symbol}</span>
        </span>
        <PhaseTag phase={o.phase} />
      </div>
      <div className="ipo-row-grid">
        <div>
          <div className="muted small">{t('ipo.price')}</div>
          <div data-testid="ipo-row-price">{priceText(o, t, true)}</div>
        </div>
        <div>
          <div className="muted small">{t('ipo.applyDays')}</div>
          <div>
            {o.applyStart.slice(5)} ~ {o.applyEnd.slice(5)}
          </div>
        </div>
        <div>
          <div className="muted small">{t('ipo.drawDate')}</div>
          <div>{o.drawDate.slice(5)}</div>
        </div>
      </div>
      <div className="ipo-row-foot">
        <span className="muted small" data-testid="ipo-row-pricing">
          {marketTypeLabel(o.marketType, t)} · {pricingLabel(o, t)}
        </span>
        {o.myStatus && <StatusTag status={o.myStatus} />}
      </div>
    </div>
  );
}

function OfferingList({ tab, onOpen }: { tab: IpoTab; onOpen: (id: number) => void }) {
  const q = useIpoListInfiniteQuery(tab, { refetchOnMountOrArgChange: true });
  return (
    <InfiniteList
      q={q}
      testId={`ipo-list-${tab}`}
      row={(o) => <OfferingRow key={o.id} o={o} onOpen={onOpen} />}
    />
  );
}

export function SubscribePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = useSelector(selectLoggedIn);
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: IpoTab = (IPO_TABS as readonly string[]).includes(tabParam ?? '')
    ? (tabParam as IpoTab)
    : 'open';
  const show = useCallback((k: string) => setParams({ tab: k }, { replace: true }), [setParams]);
  const open = useCallback((id: number) => navigate(`/market/subscribeDetail?id=${id}`), [navigate]);
  return (
    <Page
      title={t('ipo.title')}
      right={
        loggedIn ? (
          <span
            className="nav-link"
            role="link"
            data-testid="ipo-records-link"
            onClick={() => navigate('/market/subscribeRecord')}
          >
            {t('ipo.recordsLink')}
          </span>
        ) : undefined
      }
    >
      {!loggedIn ? (
        <LoginPrompt />
      ) : (
        <>
          <Tabs activeKey={tab} onChange={show} className="sticky-tabs">
            {IPO_TABS.map((k) => (
              <Tabs.Tab key={k} title={<span data-testid={`ipo-tab-${k}`}>{t(`ipo.tab.${k}`)}</span>} />
            ))}
          </Tabs>
          <p className="muted small ipo-note">{t('ipo.calendarNote')}</p>
          <OfferingList key={tab} tab={tab} onOpen={open} />
        </>
      )}
    </Page>
  );
}
