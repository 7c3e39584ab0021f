/**
 * /gdindex/dsFllowRecord: one follow's records (`?id=`), or without an id the records of all the
 * member's follows: copied orders with why each closed (the mentor, you, the copy stop-loss, a
 * liquidation, ...), its P&L for the follow and the mentor's share settled at its close, and
 * skipped ones with the reason (and the market's refusal). With none yet it says what will land
 * here and leads to the mentors.
 */
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { Copy } from '../../../../contract/copy-trading';
import { changeColor } from '../../../lib/colors';
import { formatDateTime, formatMinor, formatSignedMinor } from '../../../lib/format';
import { Page } from '../../../ui/page';
import { useFollowRecordsQuery } from '../api/copy-trading-api';
import { FollowList, Guard, useIdParam } from '../components/follow-shared';
import '../copy-trading.css';

function Record({ c, all }: { c: Copy; all: boolean }) {
  const { t } = useTranslation();
  return (
    <div
      className="gd-record"
      data-testid={`ds-record-${c.id}`}
      data-status={c.status}
      data-reason={c.reason}
    >
      <div className="card-title-row">
        <span>
          {c.symbol} · {t(`side.${c.side}`)}
          {all && <span className="muted small"> · {t('follow.followNo', { id: c.followId })}</span>}
        </span>
        <span className={`gd-copy gd-copy-${c.status}`}>{t(`follow.copy.${c.status}`)}</span>
      </div>
      <div className="muted small">
        {t('follow.lotsLine', { lots: c.lots, mentorLots: c.mentorLots })} · {formatDateTime(c.createdAt)}
      </div>
      {c.reason && (
        <div className="small">
          {t(`follow.reason.${c.reason}`)}
          {c.refusal && ` (${t(`errors.${c.refusal}`, { defaultValue: c.refusal })})`}
        </div>
      )}
      {c.pnlMinor !== null && (
        <div className="small gd-record-money">
          <span>
            {t('follow.copyPnl')}{' '}
            <b style={{ color: changeColor(c.pnlMinor) }}>{formatSignedMinor(c.pnlMinor)}</b>
          </span>
          <span>
            {t('follow.copyShare')} {formatMinor(c.profitShareMinor ?? 0)}
          </span>
        </div>
      )}
    </div>
  );
}

/**
 * No record yet: what lands here (each mentor order a follow copies or skips) and, for the
 * member's records as a whole, the way to the mentors and to their follows.
 */
function NoRecords({ all }: { all: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <section className="card gd-empty" data-testid="ds-record-empty">
      <h3 className="card-title">{t('follow.noRecordsTitle')}</h3>
      <p className="small">{t('follow.noRecordsWhy')}</p>
      {all && (
        <>
          <Button block color="primary" onClick={() => navigate('/gdindex/gdindex')} data-testid="ds-browse">
            {t('follow.browseMentors')}
          </Button>
          <a className="gd-become-link small" href="#/gdindex/dsFllowInfo">
            {t('follow.myFollows')} ›
          </a>
        </>
      )}
    </section>
  );
}

/** /gdindex/dsFllowRecord: a follow's (or all follows') copied and skipped orders. */
export function FollowRecordPage() {
  const { t } = useTranslation();
  const id = useIdParam();
  const all = !(id > 0);
  const { data } = useFollowRecordsQuery(all ? undefined : id);
  return (
    <Page title={t(all ? 'follow.allRecords' : 'follow.records')}>
      <Guard>
        {data && data.items.length === 0 ? (
          <NoRecords all={all} />
        ) : (
          <FollowList
            data={data}
            className="list-card"
            testId="ds-record-list"
            item={(c) => <Record key={c.id} c={c} all={all} />}
          />
        )}
      </Guard>
    </Page>
  );
}
