/**
 * /gdindex/dsFllowInfo: the member's follows with pause, resume and stop, each with its realised
 * P&L and the mentor's share paid so far (settled at each copy's close). A stop (which closes
 * the copies and returns the cash) is sent per tap with an idempotency key (sendTap).
 */
import { Button, Dialog } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { Follow } from '../../../../contract/copy-trading';
import { sendTap } from '../../../api/idempotency';
import { changeColor } from '../../../lib/colors';
import { formatDateTime, formatMinor, formatSignedMinor } from '../../../lib/format';
import { LabeledValue } from '../../../ui/labeled-value';
import { Page } from '../../../ui/page';
import { showToast } from '../../../ui/toast';
import { useFollowListQuery, useFollowPauseMutation, useFollowStopMutation } from '../api/copy-trading-api';
import { FollowList, Guard } from '../components/follow-shared';
import '../copy-trading.css';
import { formatBps } from '../../../../contract/money';

function FollowCard({ f }: { f: Follow }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [stop, { isLoading: stopping }] = useFollowStopMutation();
  const [pause] = useFollowPauseMutation();
  const running = f.status === 'following';
  const onStop = async () => {
    if (
      !(await Dialog.confirm({
        content: t('follow.stopConfirm'),
        confirmText: t('follow.stop'),
        cancelText: t('common.cancel'),
      }))
    )
      return;
    const res = await sendTap({ followId: f.id }, stop);
    if (res.data) showToast({ icon: 'success', content: t('follow.stopped') });
  };
  return (
    <section className="card" data-testid={`ds-follow-${f.id}`}>
      <div className="card-title-row">
        <h3 className="card-title">{f.mentorNickname}</h3>
        <span className={`gd-state gd-state-${f.status}`}>
          {t(`follow.state.${f.status}`)}
          {running && f.paused ? ` · ${t('follow.paused')}` : ''}
        </span>
      </div>
      <div className="preview">
        <LabeledValue layout="line" label={t('follow.amount')} value={formatMinor(f.amountMinor)} />
        {running && <LabeledValue layout="line" label={t('follow.cash')} value={formatMinor(f.cashMinor)} />}
        <LabeledValue layout="line" label={t('follow.stopLossShort')} value={formatBps(f.stopLossBps)} />
        <LabeledValue
          layout="line"
          label={t('follow.endTime')}
          value={formatDateTime(f.endedAt ?? f.deadlineAt)}
        />
        {f.returnedMinor !== null && (
          <LabeledValue layout="line" label={t('follow.returned')} value={formatMinor(f.returnedMinor)} />
        )}
        <LabeledValue
          layout="line"
          label={t('follow.realised')}
          value={formatSignedMinor(f.realisedMinor)}
          color={changeColor(f.realisedMinor)}
          testId={`ds-realised-${f.id}`}
        />
        <LabeledValue
          layout="line"
          label={t('follow.rebate')}
          value={formatMinor(f.profitShareMinor)}
          testId={`ds-rebate-${f.id}`}
        />
      </div>
      <div className="gd-actions">
        <Button
          size="small"
          onClick={() => navigate(`/gdindex/dsFllowRecord?id=${f.id}`)}
          data-testid="ds-records"
        >
          {t('follow.records')}
        </Button>
        {running && (
          <Button size="small" onClick={() => void pause({ followId: f.id, paused: !f.paused })}>
            {t(f.paused ? 'follow.resume' : 'follow.pause')}
          </Button>
        )}
        {running && (
          <Button size="small" color="danger" loading={stopping} onClick={onStop} data-testid="ds-stop">
            {t('follow.stop')}
          </Button>
        )}
      </div>
    </section>
  );
}

/** /gdindex/dsFllowInfo: the member's follows, refetched whenever the screen opens (the copies move the cash). */
export function FollowInfoPage() {
  const { t } = useTranslation();
  const { data } = useFollowListQuery(undefined, { refetchOnMountOrArgChange: true });
  return (
    <Page title={t('follow.myFollows')}>
      <Guard>
        <FollowList data={data} item={(f) => <FollowCard key={f.id} f={f} />} />
      </Guard>
    </Page>
  );
}
