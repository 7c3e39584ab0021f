/**
 * Follow orders (跟單; product-spec §2 "Follow orders"): the spec's five routes.
 * - /gdindex/gdindex: mentors by level (junior, intermediate, senior tabs, `?level=`);
 * - /gdindex/gdList: one mentor's figures (`?id=`), every one measured from orders and the ledger
 *   (docs/copy-trading.md), with the follow button;
 * - /gdindex/dsFllow: the follow form (`?id=`): amount, days, copy stop-loss, with the costs shown
 *   before following (profit share above the high-water mark, the fees of each copied order);
 * - /gdindex/dsFllowInfo: the member's follows with pause, resume and stop;
 * - /gdindex/dsFllowRecord: one follow's records (`?id=`): copied orders and skipped ones with
 *   the reason.
 * Profit figures are coloured by sign (TWD: up red, down green).
 */
import { Button, Dialog, Input, Tabs } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { Follow, Mentor, MentorLevel } from '../../../../contract/copy-trading';
import { MENTOR_LEVELS } from '../../../../contract/copy-trading';
import { sendTap, sendWithKey, useIdempotencyKeys } from '../../../api/idempotency';
import { selectLoggedIn } from '../../../api/session';
import { changeColor } from '../../../lib/colors';
import { formatDateTime, formatMinor, formatSignedMinor } from '../../../lib/format';
import { LabeledValue } from '../../../ui/labeled-value';
import { LoginPrompt } from '../../../ui/login-prompt';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';
import { showToast } from '../../../ui/toast';
import {
  useFollowListQuery,
  useFollowPauseMutation,
  useFollowRecordsQuery,
  useFollowStartMutation,
  useFollowStopMutation,
  useMentorInfoQuery,
  useMentorListQuery,
} from '../api/follow-api';
import '../follow.css';
import { bpsPercent } from '../format';

const hours = (ms: number) => (ms / 3_600_000).toFixed(1);

function Guard({ children }: { children: React.ReactNode }) {
  const loggedIn = useSelector(selectLoggedIn);
  return loggedIn ? <>{children}</> : <LoginPrompt />;
}

function MentorCard({ m, onOpen }: { m: Mentor; onOpen: () => void }) {
  const { t } = useTranslation();
  const s = m.stats;
  return (
    <button type="button" className="card gd-card" onClick={onOpen} data-testid={`gd-mentor-${m.id}`}>
      <div className="card-title-row">
        <h3 className="card-title">{m.nickname}</h3>
        <span className={`gd-level gd-level-${m.level}`}>{t(`follow.level.${m.level}`)}</span>
      </div>
      <div className="gd-figures">
        <LabeledValue
          layout="figure"
          label={t('follow.totalProfit')}
          value={formatSignedMinor(s.totalProfitMinor)}
          color={changeColor(s.totalProfitMinor)}
        />
        <LabeledValue layout="figure" label={t('follow.winRate')} value={bpsPercent(s.winRateBps)} />
        <LabeledValue layout="figure" label={t('follow.fundScale')} value={formatMinor(s.fundScaleMinor)} />
      </div>
    </button>
  );
}

/** /gdindex/gdindex: mentors by level. */
export function MentorListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const p = params.get('level');
  const level: MentorLevel = (MENTOR_LEVELS as readonly string[]).includes(p ?? '')
    ? (p as MentorLevel)
    : 'junior';
  const { data } = useMentorListQuery({ level });
  return (
    <Page
      title={t('follow.title')}
      back={false}
      right={
        <a className="nav-link" href="#/gdindex/dsFllowInfo">
          {t('follow.myFollows')}
        </a>
      }
    >
      <Guard>
        <Tabs
          activeKey={level}
          onChange={(k) => setParams({ level: k }, { replace: true })}
          className="sticky-tabs"
        >
          {MENTOR_LEVELS.map((k) => (
            <Tabs.Tab key={k} title={<span data-testid={`gd-tab-${k}`}>{t(`follow.level.${k}`)}</span>} />
          ))}
        </Tabs>
        {data && data.items.length === 0 ? (
          <NoData />
        ) : (
          <div className="gd-list" data-testid="gd-list">
            {(data?.items ?? []).map((m) => (
              <MentorCard key={m.id} m={m} onOpen={() => navigate(`/gdindex/gdList?id=${m.id}`)} />
            ))}
          </div>
        )}
      </Guard>
    </Page>
  );
}

/** /gdindex/gdList: one mentor's figures. */
export function MentorInfoPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const { data: m } = useMentorInfoQuery(id, { skip: !(id > 0) });
  const s = m?.stats;
  const signed = (v: number | undefined) => ({
    value: v === undefined ? '' : formatSignedMinor(v),
    color: changeColor(v),
  });
  return (
    <Page title={t('follow.mentorInfo')}>
      <Guard>
        {m && s && (
          <section className="card" data-testid="gd-info">
            <div className="card-title-row">
              <h3 className="card-title">{m.nickname}</h3>
              <span className={`gd-level gd-level-${m.level}`}>{t(`follow.level.${m.level}`)}</span>
            </div>
            <div className="preview">
              <LabeledValue
                layout="line"
                label={t('follow.fundScale')}
                value={formatMinor(s.fundScaleMinor)}
              />
              <LabeledValue layout="line" label={t('follow.totalProfit')} {...signed(s.totalProfitMinor)} />
              <LabeledValue
                layout="line"
                label={t('follow.yesterdayProfit')}
                {...signed(s.yesterdayProfitMinor)}
              />
              <LabeledValue
                layout="line"
                label={t('follow.dailyReturn')}
                value={bpsPercent(s.dailyReturnBps, true)}
                color={changeColor(s.dailyReturnBps)}
              />
              <LabeledValue layout="line" label={t('follow.winRate')} value={bpsPercent(s.winRateBps)} />
              <LabeledValue
                layout="line"
                label={t('follow.historicalProfit')}
                {...signed(s.historicalProfitMinor)}
              />
              <LabeledValue
                layout="line"
                label={t('follow.avgHolding')}
                value={t('follow.hours', { h: hours(s.avgHoldingMs) })}
              />
              <LabeledValue
                layout="line"
                label={t('follow.maxDrawdown')}
                value={bpsPercent(s.maxDrawdownBps)}
              />
              <LabeledValue
                layout="line"
                label={t('follow.avgLeverage')}
                value={`${(s.avgLeverageX100 / 100).toFixed(2)}×`}
              />
              <LabeledValue layout="line" label={t('follow.closedTrades')} value={String(s.closedTrades)} />
              <LabeledValue
                layout="line"
                label={t('follow.minFollow')}
                value={formatMinor(m.minFollowMinor)}
              />
              <LabeledValue
                layout="line"
                label={t('follow.profitShare')}
                value={bpsPercent(m.profitShareBps)}
              />
            </div>
            <Button
              block
              color="primary"
              data-testid="gd-follow"
              onClick={() => navigate(`/gdindex/dsFllow?id=${m.id}`)}
            >
              {t('follow.follow')}
            </Button>
          </section>
        )}
      </Guard>
    </Page>
  );
}

/** /gdindex/dsFllow: the follow form. */
export function FollowFormPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const { data: m } = useMentorInfoQuery(id, { skip: !(id > 0) });
  const [amount, setAmount] = useState('');
  const [days, setDays] = useState('30');
  const [stopLoss, setStopLoss] = useState('40');
  const [start, { isLoading }] = useFollowStartMutation();
  const keys = useIdempotencyKeys();
  const amountMinor = /^\d{1,9}$/.test(amount) ? Number(amount) * 100 : NaN;
  const daysN = /^\d{1,3}$/.test(days) ? Number(days) : NaN;
  const slN = /^\d{1,2}$/.test(stopLoss) ? Number(stopLoss) : NaN;
  const error = !m
    ? null
    : !(amountMinor > 0)
      ? null
      : amountMinor < m.minFollowMinor
        ? t('follow.belowMin', { min: formatMinor(m.minFollowMinor) })
        : !(daysN >= 1 && daysN <= 365)
          ? t('follow.daysRange')
          : !(slN >= 5 && slN <= 95)
            ? t('follow.stopLossRange')
            : null;
  const onSubmit = async () => {
    if (!m || error || !(amountMinor > 0)) return;
    const res = await sendWithKey(
      keys,
      { mentorId: m.id, amountMinor, days: daysN, stopLossBps: slN * 100 },
      (call) => start(call),
    );
    if (res) {
      showToast({ icon: 'success', content: t('follow.followed') });
      navigate('/gdindex/dsFllowInfo');
    }
  };
  return (
    <Page title={t('follow.followTitle')}>
      <Guard>
        {m && (
          <section className="card" data-testid="ds-form">
            <h3 className="card-title">{m.nickname}</h3>
            <label className="gd-field">
              <span>{t('follow.amount')}</span>
              <Input
                inputMode="numeric"
                value={amount}
                onChange={setAmount}
                placeholder={formatMinor(m.minFollowMinor)}
                data-testid="ds-amount"
              />
            </label>
            <label className="gd-field">
              <span>{t('follow.days')}</span>
              <Input inputMode="numeric" value={days} onChange={setDays} data-testid="ds-days" />
            </label>
            <label className="gd-field">
              <span>{t('follow.stopLoss')}</span>
              <Input inputMode="numeric" value={stopLoss} onChange={setStopLoss} data-testid="ds-stop-loss" />
            </label>
            {error && <div className="field-error">{error}</div>}
            <div className="preview">
              <LabeledValue
                layout="line"
                label={t('follow.minFollow')}
                value={formatMinor(m.minFollowMinor)}
              />
              <LabeledValue
                layout="line"
                label={t('follow.profitShare')}
                value={bpsPercent(m.profitShareBps)}
              />
            </div>
            <p className="muted small">{t('follow.costsNote', { share: bpsPercent(m.profitShareBps) })}</p>
            <Button
              block
              color="primary"
              loading={isLoading}
              disabled={!!error || !(amountMinor > 0)}
              onClick={onSubmit}
              data-testid="ds-submit"
            >
              {t('follow.follow')}
            </Button>
          </section>
        )}
      </Guard>
    </Page>
  );
}

function FollowCard({ f }: { f: Follow }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [stop, { isLoading: stopping }] = useFollowStopMutation();
  const [pause] = useFollowPauseMutation();
  const running = f.status === 'following';
  const onStop = async () => {
    if (!(await Dialog.confirm({ content: t('follow.stopConfirm') }))) return;
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
        <LabeledValue layout="line" label={t('follow.stopLossShort')} value={bpsPercent(f.stopLossBps)} />
        <LabeledValue
          layout="line"
          label={t('follow.endTime')}
          value={formatDateTime(f.endedAt ?? f.deadlineAt)}
        />
        {f.returnedMinor !== null && (
          <LabeledValue layout="line" label={t('follow.returned')} value={formatMinor(f.returnedMinor)} />
        )}
        {f.profitShareMinor !== null && (
          <LabeledValue layout="line" label={t('follow.rebate')} value={formatMinor(f.profitShareMinor)} />
        )}
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

/** /gdindex/dsFllowInfo: the member's follows. */
export function FollowInfoPage() {
  const { t } = useTranslation();
  const { data } = useFollowListQuery();
  return (
    <Page title={t('follow.myFollows')}>
      <Guard>
        {data && data.items.length === 0 ? (
          <NoData />
        ) : (
          (data?.items ?? []).map((f) => <FollowCard key={f.id} f={f} />)
        )}
      </Guard>
    </Page>
  );
}

/** /gdindex/dsFllowRecord: one follow's copied and skipped orders. */
export function FollowRecordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const { data } = useFollowRecordsQuery(id, { skip: !(id > 0) });
  return (
    <Page title={t('follow.records')}>
      <Guard>
        {data && data.items.length === 0 ? (
          <NoData />
        ) : (
          <div className="list-card" data-testid="ds-record-list">
            {(data?.items ?? []).map((c) => (
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
            ))}
          </div>
        )}
      </Guard>
    </Page>
  );
}
