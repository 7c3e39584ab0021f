/**
 * Deposit hours as user/depositChannels reports them (Asia/Taipei; product-spec §9: weekdays
 * 09:30–19:30, closed on holidays, operators may change them), whether deposits are open now and,
 * when closed, the next opening.
 */
import { useTranslation } from 'react-i18next';
import type { ResOf } from '../../../../contract/api';
import { formatDateTime } from '../../../lib/format';

type ChannelsRes = ResOf<'user/depositChannels'>;

export function DepositHours({ data }: { data: ChannelsRes }) {
  const { t } = useTranslation();
  const { hours, openNow, nextOpenAt } = data;
  const span = { open: hours.open, close: hours.close };
  return (
    <section className="card deposit-hours" data-testid="deposit-hours" data-open={openNow}>
      <div className="deposit-hours-head">
        <span className="card-title">{t('recharge.hoursTitle')}</span>
        <span
          className="status-tag"
          style={{ background: openNow ? '#12a150' : '#8c8c8c' }}
          data-testid="deposit-open-now"
        >
          {t(openNow ? 'recharge.openNow' : 'recharge.closedNow')}
        </span>
      </div>
      <div className="small">
        {t(hours.weekdaysOnly ? 'recharge.hoursWeekdays' : 'recharge.hoursDaily', span)}
      </div>
      {hours.holidaysClosed && <div className="small">{t('recharge.holidaysClosed')}</div>}
      {!openNow && nextOpenAt !== null && (
        <div className="small deposit-next" data-testid="deposit-next-open">
          {t('recharge.nextOpen', { at: formatDateTime(nextOpenAt).slice(0, 16) })}
        </div>
      )}
    </section>
  );
}
