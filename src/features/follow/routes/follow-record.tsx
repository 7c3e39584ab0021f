/** /gdindex/dsFllowRecord: one follow's records (`?id=`): copied orders and skipped ones with the reason. */
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';
import { Page } from '../../../ui/page';
import { useFollowRecordsQuery } from '../api/follow-api';
import { FollowList, Guard, useIdParam } from '../components/follow-shared';
import '../follow.css';

/** /gdindex/dsFllowRecord: one follow's copied and skipped orders. */
export function FollowRecordPage() {
  const { t } = useTranslation();
  const id = useIdParam();
  const { data } = useFollowRecordsQuery(id, { skip: !(id > 0) });
  return (
    <Page title={t('follow.records')}>
      <Guard>
        <FollowList
          data={data}
          className="list-card"
          testId="ds-record-list"
          item={(c) => (
            <div key={c.id} className="gd-record" data-testid={`ds-record-${c.id}`} data-status={c.status}>
              <div className="card-title-row">
                <span>
                  {c.symbol} · {t(`side.${c.side}`)}
                </span>
                <span className={`gd-copy gd-copy-${c.status}`}>{t(`follow.copy.${c.status}`)}</span>
              </div>
              <div className="muted small">
                {t('follow.lotsLine', { lots: c.lots, mentorLots: c.mentorLots })} ·{' '}
                {formatDateTime(c.createdAt)}
              </div>
              {c.reason && <div className="small">{t(`follow.reason.${c.reason}`)}</div>}
            </div>
          )}
        />
      </Guard>
    </Page>
  );
}
