/**
 * /gdindex/dsFllow: the follow form (`?id=`): amount, days, copy stop-loss, with the smallest
 * amount that would have copied the mentor's recent orders (MinFollowCard) and the costs shown
 * before following (profit share above the high-water mark, the fees of each copied order). The
 * follow is sent with this form's idempotency key (sendWithKey). Without an id the mentor list
 * opens (a follow starts from a mentor).
 */
import { Button, Input } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { sendWithKey, useIdempotencyKeys } from '../../../api/idempotency';
import { formatMinor } from '../../../lib/format';
import { Page } from '../../../ui/page';
import { showToast } from '../../../ui/toast';
import { useFollowStartMutation } from '../api/copy-trading-api';
import { Guard, MentorTerms, useIdParam, useRouteMentor } from '../components/follow-shared';
import { MinFollowCard } from '../components/min-follow';
import '../copy-trading.css';
import { MentorListPage } from './mentor-list';
import { formatBps } from '../../../../contract/money';

/** /gdindex/dsFllow: the follow form. */
export function FollowFormPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = useIdParam();
  const m = useRouteMentor();
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
  // Without a mentor id the route shows the mentor list to choose from (its own route, not a redirect).
  if (!(id > 0)) return <MentorListPage inPlace hint={t('follow.pickToFollow')} />;
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
            <MinFollowCard mentorId={m.id} amountMinor={amountMinor} onUse={(nt) => setAmount(String(nt))} />
            <div className="preview">
              <MentorTerms m={m} />
            </div>
            <p className="muted small">{t('follow.costsNote', { share: formatBps(m.profitShareBps) })}</p>
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
