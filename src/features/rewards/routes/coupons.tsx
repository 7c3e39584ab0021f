/**
 * /home/coupons: redeem a points code, the member's points and the points shop (fee coupons for
 * points), and the fee coupons by tab (available / used / expired). A coupon is chosen on the
 * order ticket; it takes its amount or share off that order's opening commission.
 */
import { Button, Input, Tabs } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import {
  COUPON_TABS,
  groupCodeInput,
  type Coupon,
  type CouponOfferId,
  type CouponTab,
} from '../../../../contract/rewards';
import { sendWithKey, useIdempotencyKeys } from '../../../api/idempotency';
import { selectLoggedIn } from '../../../api/session';
import { formatDateTime, formatMinor } from '../../../lib/format';
import { couponText } from '../components/coupon-text';
import {
  useBuyCouponMutation,
  useCouponOffersQuery,
  useCouponsQuery,
  useRedeemCodeMutation,
} from '../api/rewards-api';
import '../rewards.css';
import { LoginPrompt } from '../../../ui/login-prompt';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';
import { showToast } from '../../../ui/toast';

function CouponCard({ c }: { c: Coupon }) {
  const { t } = useTranslation();
  return (
    <div className={`rw-coupon ${c.state === 'available' ? '' : 'off'}`} data-testid={`coupon-${c.id}`}>
      <div>
        <div className="rw-coupon-value">{couponText(t, c)}</div>
        <div className="muted small">
          {c.state === 'used'
            ? t('rewards.usedOn', { time: formatDateTime(c.usedAt ?? 0), order: c.orderNo ?? '' })
            : t('rewards.expiresAt', { time: formatDateTime(c.expiresAt) })}
        </div>
      </div>
      <span className="small">{t(`rewards.tab.${c.state}`)}</span>
    </div>
  );
}

function RedeemCard() {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [redeem, redeeming] = useRedeemCodeMutation();
  const keys = useIdempotencyKeys();
  const onRedeem = async () => {
    const r = await sendWithKey(keys, { code }, redeem);
    if (r) {
      setCode('');
      showToast({
        content:
          r.kind === 'cash'
            ? t('rewards.redeemedCash', { amount: formatMinor(r.amount) })
            : t('rewards.redeemedPoints', { points: r.amount }),
      });
    }
  };
  return (
    <section className="card" data-testid="redeem-card">
      <h3 className="card-title">{t('rewards.redeemTitle')}</h3>
      <div className="rw-redeem">
        <Input
          value={code}
          onChange={(v) => setCode(groupCodeInput(v))}
          placeholder={t('rewards.codePlaceholder')}
          maxLength={40}
          autoCapitalize="characters"
          data-testid="redeem-code"
        />
        <Button
          color="primary"
          size="small"
          disabled={code.trim().length === 0}
          loading={redeeming.isLoading}
          onClick={onRedeem}
          data-testid="redeem-submit"
        >
          {t('rewards.redeem')}
        </Button>
      </div>
    </section>
  );
}

function ShopCard() {
  const { t } = useTranslation();
  const { data } = useCouponOffersQuery();
  const [buy, buying] = useBuyCouponMutation();
  const keys = useIdempotencyKeys();
  if (!data) return null;
  return (
    <section className="card" data-testid="shop-card">
      <div className="rw-row">
        <h3 className="card-title">{t('rewards.shopTitle')}</h3>
        <span>
          {t('rewards.points')}: <b data-testid="shop-points">{data.pointsBalance}</b>
        </span>
      </div>
      {data.offers.map((o) => (
        <div className="rw-row" key={o.id}>
          <span>
            {couponText(t, o)}{' '}
            <span className="muted small">({t('rewards.validDays', { days: o.validDays })})</span>
          </span>
          <Button
            size="small"
            disabled={data.pointsBalance < o.pointsCost}
            loading={buying.isLoading}
            onClick={async () => {
              if (await sendWithKey(keys, { offerId: o.id as CouponOfferId }, buy))
                showToast({ content: t('rewards.bought', { coupon: couponText(t, o) }) });
            }}
            data-testid={`buy-${o.id}`}
          >
            {t('rewards.buyFor', { points: o.pointsCost })}
          </Button>
        </div>
      ))}
    </section>
  );
}

export function CouponsPage() {
  const { t } = useTranslation();
  const loggedIn = useSelector(selectLoggedIn);
  const [tab, setTab] = useState<CouponTab>('available');
  const { data } = useCouponsQuery(tab, { skip: !loggedIn, refetchOnMountOrArgChange: true });
  if (!loggedIn)
    return (
      <Page title={t('rewards.couponsTitle')}>
        <LoginPrompt />
      </Page>
    );
  return (
    <Page title={t('rewards.couponsTitle')}>
      <RedeemCard />
      <ShopCard />
      <section className="card">
        <Tabs activeKey={tab} onChange={(k) => setTab(k as CouponTab)}>
          {COUPON_TABS.map((k) => (
            <Tabs.Tab key={k} title={<span data-testid={`coupons-tab-${k}`}>{t(`rewards.tab.${k}`)}</span>} />
          ))}
        </Tabs>
        <div data-testid="coupons-list">
          {data && data.items.length === 0 ? (
            <NoData />
          ) : (
            data?.items.map((c) => <CouponCard key={c.id} c={c} />)
          )}
        </div>
        <p className="muted small">{t('rewards.couponNote')}</p>
      </section>
    </Page>
  );
}
