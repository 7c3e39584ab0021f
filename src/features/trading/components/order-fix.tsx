/**
 * The order ticket's fixes (./order-panel.tsx): a one-tap valid price under the price field, and
 * under the button a refusal's rule (the translated error key) with its fix (contract/trading.ts
 * OrderFix) — a "use this" button where the fix is a value (a price, limit ROD, a number of lots),
 * the time entry opens where it is a time.
 */
import { Button } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { OrderFix } from '../../../../contract/trading';
import { formatDateTime, formatMinor } from '../../../lib/format';

/** What the fix box does when tapped. */
export interface FixActions {
  usePrice(priceMinor: number): void;
  useLimitRod(priceMinor: number | null): void;
  useLots(lots: number): void;
}

/** A one-tap fix under the price field: a valid price (TWD minor units) that replaces the typed one. */
export function PriceFixButton({
  priceMinor,
  onUse,
}: {
  priceMinor: number;
  onUse: (priceMinor: number) => void;
}) {
  return (
    <Button
      size="mini"
      fill="outline"
      onClick={() => onUse(priceMinor)}
      data-testid={`order-price-fix-${priceMinor}`}
    >
      {formatMinor(priceMinor)}
    </Button>
  );
}

/** A refusal's rule (the translated error) and its fix, with a one-tap button where it has a value. */
export function FixNotice({ msg, fix, act }: { msg: string; fix: OrderFix | null; act: FixActions }) {
  const { t } = useTranslation();
  const use = (label: string, onClick: () => void, testId = 'order-fix-use') => (
    <Button key={testId} size="mini" fill="outline" color="primary" onClick={onClick} data-testid={testId}>
      {label}
    </Button>
  );
  let body: ReactNode = null;
  switch (fix?.rule) {
    case 'offTick':
      body = fix.nearestMinor.map((p, i) =>
        use(t('order.fix.usePrice', { price: formatMinor(p) }), () => act.usePrice(p), `order-fix-use-${i}`),
      );
      break;
    case 'aboveLimitUp':
      body = use(t('order.fix.usePrice', { price: formatMinor(fix.limitUpMinor) }), () =>
        act.usePrice(fix.limitUpMinor),
      );
      break;
    case 'belowLimitDown':
      body = use(t('order.fix.usePrice', { price: formatMinor(fix.limitDownMinor) }), () =>
        act.usePrice(fix.limitDownMinor),
      );
      break;
    case 'afterHoursPrice':
      body = use(t('order.fix.usePrice', { price: formatMinor(fix.priceMinor) }), () =>
        act.usePrice(fix.priceMinor),
      );
      break;
    case 'continuousOnly':
      body = (
        <>
          {use(
            fix.priceMinor !== null
              ? t('order.fix.useLimitRod', { price: formatMinor(fix.priceMinor) })
              : t('order.fix.useLimitRodNoPrice'),
            () => act.useLimitRod(fix.priceMinor),
          )}
          {fix.continuousAtMs !== null && (
            <span className="muted small">
              {t('order.fix.continuousAt', { time: formatDateTime(fix.continuousAtMs) })}
            </span>
          )}
        </>
      );
      break;
    case 'outsideSession':
      body = (
        <span className="muted small" data-testid="order-fix-opens">
          {fix.opensAtMs !== null
            ? t('order.fix.opensAt', { time: formatDateTime(fix.opensAtMs) })
            : t('order.fix.noSession')}
        </span>
      );
      break;
    case 'maxLots':
      body = use(t('order.fix.useLots', { n: fix.maxLots }), () => act.useLots(fix.maxLots));
      break;
    case 'lockUp':
      body = (
        <span className="muted small">
          {t('order.fix.closableAt', { time: formatDateTime(fix.closableAtMs) })}
        </span>
      );
      break;
    case 'tPlusOne':
      body = (
        <span className="muted small">
          {fix.sellableFrom
            ? t('order.fix.sellableFrom', { date: fix.sellableFrom })
            : t('order.fix.sellableNext')}
        </span>
      );
      break;
    case 'dailyLimit':
      body = <span className="muted small">{t('order.fix.dailyLimit', { n: fix.limit })}</span>;
      break;
    default:
      body = null;
  }
  return (
    <div className="field-error" data-testid="order-fix" data-rule={fix?.rule ?? msg} role="alert">
      <div>{t(`errors.${msg}`, { defaultValue: t('errors.generic') })}</div>
      {body && <div className="segmented">{body}</div>}
    </div>
  );
}
