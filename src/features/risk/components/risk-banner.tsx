/**
 * The member's risk notice, for the positions screen and the member centre: the live maintenance
 * ratio with both thresholds, a margin-call banner while a call is open or the live ratio is
 * below the call threshold, and one banner per unread forced liquidation saying why (the ratio,
 * the threshold, the closing price), each dismissed by marking it read. When a new notice
 * arrives (the summary's `lastEventId` grows) or the set of open positions changes (a liquidation,
 * a resting order filled on the server), the orders and the account are refetched, so the lists
 * follow without a manual refresh (within RISK_POLL_MS).
 */
import { Button, NoticeBar } from 'antd-mobile';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import { selectLoggedIn } from '../../../api/session';
import { formatMinorOrDash } from '../../../lib/format';
import { riskApi, useMarkRiskReadMutation, useRiskEventsQuery } from '../api/risk-api';
import '../risk.css';
import { useLiveRisk } from '../hooks/use-live-risk';
import { formatBps } from '../../../../contract/money';

/** Unread notices shown at most (the rest stay in risk/events). */
const MAX_NOTICES = 5;

export function RiskBanner() {
  const { t } = useTranslation();
  const dispatch = useDispatch();
  const loggedIn = useSelector(selectLoggedIn);
  const live = useLiveRisk({ skip: !loggedIn });
  const unread = live?.summary.unreadEvents ?? 0;
  const { data: events } = useRiskEventsQuery(
    { page: 1, pageSize: MAX_NOTICES, unreadOnly: true },
    { skip: !loggedIn || unread === 0 },
  );
  const [markRead, { isLoading: marking }] = useMarkRiskReadMutation();

  // A new notice or a changed set of open positions (a liquidation, a resting order filled on the
  // server): refresh the lists and balances the screens show.
  const current = live?.summary;
  const stamp = current
    ? `${current.lastEventId ?? 0}|${current.positions.map((p) => p.orderId).join(',')}`
    : null;
  const seen = useRef<string | null>(null);
  useEffect(() => {
    if (stamp === null) return;
    if (seen.current !== null && stamp !== seen.current)
      dispatch(riskApi.util.invalidateTags(['Orders', 'Account', 'Funds', 'Risk']));
    seen.current = stamp;
  }, [stamp, dispatch]);

  if (!live || !loggedIn) return null;
  const { summary, risk } = live;
  const pct = {
    ratio: formatBps(risk.ratioBps),
    call: formatBps(summary.marginCallBps),
    maintenance: formatBps(summary.maintenanceBps),
    deadline: summary.marginCallSaleDate ?? '',
    order: summary.marginCallSaleOrder.join(', '),
  };
  const called = summary.marginCallActive || risk.level === 'marginCall' || risk.level === 'liquidation';
  const liquidations = (events?.items ?? []).filter((e) => e.kind === 'liquidation');
  if (risk.ratioBps === null && !called && liquidations.length === 0) return null;

  return (
    <section className="risk-banner" data-testid="risk-banner" data-level={risk.level}>
      {risk.ratioBps !== null && (
        <div className="muted small" data-testid="risk-ratio" data-bps={risk.ratioBps}>
          {t('risk.ratioLine', pct)}
        </div>
      )}
      {called && risk.ratioBps !== null && (
        <div data-testid="risk-margin-call">
          <NoticeBar
            color="alert"
            wrap
            content={t(summary.marginCallSaleDate ? 'risk.marginCallDeadline' : 'risk.marginCallNotice', pct)}
          />
        </div>
      )}
      {liquidations.map((e) => (
        <div key={e.id} data-testid={`risk-liquidation-${e.orderId}`}>
          <NoticeBar
            color="error"
            wrap
            content={t('risk.liquidationNotice', {
              symbol: e.symbol ?? '--',
              price: formatMinorOrDash(e.priceMinor),
              ratio: formatBps(e.ratioBps),
              threshold: formatBps(e.thresholdBps),
            })}
          />
        </div>
      ))}
      {unread > 0 && liquidations.length > 0 && (
        <Button
          size="mini"
          fill="none"
          loading={marking}
          onClick={() => void markRead({})}
          data-testid="risk-mark-read"
        >
          {t('risk.markRead')}
        </Button>
      )}
    </section>
  );
}
