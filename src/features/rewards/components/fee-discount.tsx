/**
 * The order ticket's fee discount (contract/market-rules.ts FeeDiscount; docs/levels.md): the
 * member's account-level discount (rewards/summary) and the fee coupon chosen on the ticket (one
 * of the available ones, rewards/coupons). The ticket previews with `discount` and sends
 * `couponId`; the server records the same discount on the order and charges with the same
 * function, so preview and execution agree to the cent.
 */
import { Selector } from 'antd-mobile';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FeeDiscount } from '../../../../contract/market-rules';
import { couponText } from './coupon-text';
import { useCouponsQuery, useRewardsSummaryQuery } from '../api/rewards-api';

export function useFeeDiscount(loggedIn: boolean) {
  const { data: summary } = useRewardsSummaryQuery(undefined, { skip: !loggedIn });
  const { data: coupons } = useCouponsQuery('available', { skip: !loggedIn });
  const [couponId, setCouponId] = useState<number | null>(null);
  const available = useMemo(() => coupons?.items ?? [], [coupons]);
  const chosen = available.find((c) => c.id === couponId) ?? null;
  const levelBps = summary?.feeDiscountBps ?? 0;
  const discount = useMemo<FeeDiscount>(
    () => ({ levelBps, couponBps: chosen?.offBps ?? 0, couponOffMinor: chosen?.offMinor ?? 0 }),
    [levelBps, chosen],
  );
  return { discount, available, couponId: chosen?.id ?? null, setCouponId };
}

/** The coupon row of the ticket: none, or one of the member's available coupons. */
export function CouponPicker({
  coupons,
  value,
  onChange,
  testId,
}: {
  coupons: ReturnType<typeof useFeeDiscount>['available'];
  value: number | null;
  onChange: (id: number | null) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  if (coupons.length === 0) return null;
  return (
    <div className="order-row" data-testid={testId}>
      <div className="muted small">{t('rewards.useCoupon')}</div>
      <Selector<number>
        columns={2}
        value={[value ?? 0]}
        showCheckMark={false}
        onChange={(v) => onChange(v[0] ? v[0] : null)}
        options={[
          { value: 0, label: <span data-testid={`${testId}-none`}>{t('rewards.noCoupon')}</span> },
          ...coupons.slice(0, 5).map((c) => ({
            value: c.id,
            label: <span data-testid={`${testId}-${c.id}`}>{couponText(t, c)}</span>,
          })),
        ]}
      />
    </div>
  );
}
