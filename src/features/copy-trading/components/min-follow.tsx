/**
 * The follow form's minimum (mentor/minFollow, docs/copy-trading.md "The smallest amount"): from
 * the mentor's own orders of the last days and their equity at each (the ledger), the smallest
 * amount that would have copied every one of them, how many the amount typed would have copied,
 * the latest orders with the amount each needed, and why (the allocation rule). Nothing is typed
 * in: every figure comes from the server.
 */
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { divCeil, MINOR_PER_MAJOR } from '../../../../contract/money';
import { formatDateTime, formatMinor } from '../../../lib/format';
import { LabeledValue } from '../../../ui/labeled-value';
import { useMentorMinFollowQuery } from '../api/copy-trading-api';

/** Latest orders listed on the form (the rest are counted). */
const SHOWN = 5;

export function MinFollowCard({
  mentorId,
  amountMinor,
  onUse,
}: {
  mentorId: number;
  /** The amount typed (NaN or ≤ 0 when none). */
  amountMinor: number;
  /** Fills the amount field with whole NT$. */
  onUse: (amountNt: number) => void;
}) {
  const { t } = useTranslation();
  const { data } = useMentorMinFollowQuery(mentorId);
  if (!data) return null;
  const n = data.orders.length;
  const typed = amountMinor > 0;
  // An order is copied (at least one lot) exactly when the amount reaches its minimum (rules.ts).
  const copied = data.orders.filter(
    (o) => o.minAmountMinor !== null && amountMinor >= o.minAmountMinor,
  ).length;
  return (
    <section className="gd-min" data-testid="ds-minimum">
      <h4 className="gd-min-title">{t('follow.minTitle')}</h4>
      {n === 0 ? (
        <p className="muted small">{t('follow.minNone', { days: data.windowDays })}</p>
      ) : (
        <>
          <LabeledValue
            layout="line"
            label={t('follow.minCoversAll', { count: n, days: data.windowDays })}
            value={data.coversAllMinor === null ? t('follow.minNever') : formatMinor(data.coversAllMinor)}
            testId="ds-min-all"
          />
          {typed && (
            <div
              className={`small gd-min-typed ${copied === n ? 'gd-ok' : 'gd-warn'}`}
              data-testid="ds-min-typed"
            >
              {t('follow.minWithAmount', { amount: formatMinor(amountMinor), copied, count: n })}
            </div>
          )}
          <table className="gd-min-table">
            <thead>
              <tr>
                <th>{t('follow.minOrder')}</th>
                <th>{t('follow.minNeeded')}</th>
              </tr>
            </thead>
            <tbody>
              {data.orders.slice(0, SHOWN).map((o) => (
                <tr key={o.orderId} data-testid={`ds-min-order-${o.orderId}`}>
                  <td>
                    {o.symbol} · {t(`side.${o.side}`)} · {t('follow.lotsOnly', { lots: o.lots })}
                    <div className="muted">{formatDateTime(o.openedAt)}</div>
                  </td>
                  <td
                    className={
                      typed && o.minAmountMinor !== null && amountMinor < o.minAmountMinor ? 'gd-warn' : ''
                    }
                  >
                    {o.minAmountMinor === null ? t('follow.minNever') : formatMinor(o.minAmountMinor)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {n > SHOWN && <div className="muted small">{t('follow.minMore', { count: n - SHOWN })}</div>}
          {data.coversAllMinor !== null && (
            <Button
              size="small"
              fill="outline"
              onClick={() => onUse(divCeil(data.coversAllMinor!, MINOR_PER_MAJOR))}
              data-testid="ds-min-use"
            >
              {t('follow.minUse')}
            </Button>
          )}
        </>
      )}
      <p className="muted small">{t('follow.minExplain', { min: formatMinor(data.mentorMinFollowMinor) })}</p>
    </section>
  );
}
