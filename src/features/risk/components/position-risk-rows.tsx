/**
 * The risk rows of the position detail: for a live position its liquidation price, its own
 * margin level and the account's maintenance ratio (live); for a position closed by a forced
 * liquidation, why — the account ratio against the maintenance threshold at the last price that
 * triggered it, and when (its `liquidation` risk event). Rows are `{k, v, testId}` like the
 * detail's own table.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import type { Order } from '../../../../contract/trading';
import { selectLoggedIn } from '../../../api/session';
import { formatDateTime, formatMinorOrDash } from '../../../lib/format';
import { useRiskEventsQuery } from '../api/risk-api';
import { useLiveRisk } from '../hooks/use-live-risk';
import { formatBps } from '../../../../contract/money';

export interface RiskRow {
  k: string;
  v: ReactNode;
  testId?: string;
}

const isLive = (o: Order) => o.status === 'holding' || o.status === 'closing';

/** Rows to add to the detail of `order` (none while it loads, for pending or ordinary closes). */
export function usePositionRiskRows(order: Order | undefined): RiskRow[] {
  const { t } = useTranslation();
  const loggedIn = useSelector(selectLoggedIn);
  const live = order !== undefined && isLive(order);
  const liquidated = order?.closeReason === 'liquidation';
  const risk = useLiveRisk({ skip: !loggedIn || !live });
  const { data: events } = useRiskEventsQuery(
    { page: 1, pageSize: 10, orderId: order?.id, unreadOnly: false },
    { skip: !loggedIn || !liquidated || order === undefined },
  );
  if (!order) return [];
  if (live) {
    const p = risk?.byOrder.get(order.id);
    return [
      {
        k: t('risk.liquidationPrice'),
        v: formatMinorOrDash(p?.liquidationPriceMinor ?? null),
        testId: 'pd-liq-price',
      },
      { k: t('risk.positionRatio'), v: formatBps(p?.ratioBps), testId: 'pd-position-ratio' },
      { k: t('risk.accountRatio'), v: formatBps(risk?.risk.ratioBps), testId: 'pd-account-ratio' },
    ];
  }
  if (!liquidated) return [];
  const e = events?.items.find((x) => x.kind === 'liquidation');
  return [
    {
      k: t('risk.liquidationReason'),
      v: e
        ? t('risk.liquidationWhy', {
            ratio: formatBps(e.ratioBps),
            threshold: formatBps(e.thresholdBps),
            mark: formatMinorOrDash(e.markMinor),
          })
        : '--',
      testId: 'pd-liquidation-why',
    },
    { k: t('risk.liquidatedAt'), v: formatDateTime(e?.createdAt ?? null), testId: 'pd-liquidated-at' },
  ];
}
