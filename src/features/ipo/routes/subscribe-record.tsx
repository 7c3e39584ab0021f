/**
 * /market/subscribeRecord: the member's applications, newest first, with their state (waiting
 * for draw, won, subscribed, not won, unpaid, waived), amounts and the draw and listing days; an
 * unpaid one shows its payable amount and opens the detail to pay while payable.
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import type { IpoApplication } from '../../../../contract/ipo';
import { selectLoggedIn } from '../../../api/session';
import { formatMinor, langOf } from '../../../lib/format';
import { instrumentName } from '../../../live/names-en';
import { LoginPrompt } from '../../../ui/login-prompt';
import { Page } from '../../../ui/page';
import { useIpoRecordsInfiniteQuery } from '../api/ipo-api';
import { InfiniteList } from '../../../ui/infinite-list';
import { StatusTag } from '../components/parts';
import '../ipo.css';

function RecordRow({ a, onOpen }: { a: IpoApplication; onOpen: (id: number) => void }) {
  const { t, i18n } = useTranslation();
  return (
    <div
      className="ipo-row"
      role="button"
      data-testid={`ipo-record-${a.id}`}
      onClick={() => onOpen(a.offeringId)}
    >
      <div className="ipo-row-head">
        <span className="ipo-name">
          {instrumentName(a, langOf(i18n.language))} <span className="muted small">{a.symbol}</span>
        </span>
        <StatusTag status={a.status} />
      </div>
      <div className="ipo-row-grid">
        <div>
          <div className="muted small">{t('ipo.price')}</div>
          <div>{formatMinor(a.priceMinor)}</div>
        </div>
        <div>
          <div className="muted small">{a.payable ? t('ipo.payable') : t('ipo.paid')}</div>
          <div>{formatMinor(a.payable ? a.payableMinor : a.paidMinor)}</div>
        </div>
        <div>
          <div className="muted small">{t('ipo.wonUnits')}</div>
          <div>{a.wonUnits}</div>
        </div>
      </div>
      <div className="ipo-row-foot">
        <span className="muted small">{a.applicationNo}</span>
        <span className="muted small">
          {t('ipo.drawDate')} {a.drawDate} · {t('ipo.listingDate')} {a.listingDate}
        </span>
      </div>
    </div>
  );
}

export function SubscribeRecordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = useSelector(selectLoggedIn);
  const q = useIpoRecordsInfiniteQuery(undefined, { skip: !loggedIn, refetchOnMountOrArgChange: true });
  const open = useCallback((id: number) => navigate(`/market/subscribeDetail?id=${id}`), [navigate]);
  return (
    <Page title={t('ipo.records')}>
      {!loggedIn ? (
        <LoginPrompt />
      ) : (
        <InfiniteList q={q} testId="ipo-records" row={(a) => <RecordRow key={a.id} a={a} onOpen={open} />} />
      )}
    </Page>
  );
}
