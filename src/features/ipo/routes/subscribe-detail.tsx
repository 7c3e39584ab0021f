/**
 * /market/subscribeDetail?id=: every field of the spec's subscription entity (price, market price,
 * how the price sits on the replayed market, total units, the dates on the replayed calendar only
 * (the source announcement once, labelled), P/E and industry P/E where known else '--', payable
 * and subscribed amounts, number won), the member's application
 * with apply (one per offering, NT$ price × shares + 20 + 50 held at once) and pay (while an unpaid
 * application is payable), and the published draw with its browser check.
 */
import { Button, Dialog, DotLoading } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { IPO_NOTIFICATION_FEE_MINOR, IPO_PROCESSING_FEE_MINOR } from '../../../../contract/ipo';
import { sendWithKey, useIdempotencyKeys } from '../../../api/idempotency';
import { selectLoggedIn } from '../../../api/session';
import { formatMinor, langOf } from '../../../lib/format';
import { instrumentName } from '../../../live/names-en';
import { LoginPrompt } from '../../../ui/login-prompt';
import { Page } from '../../../ui/page';
import { useIpoApplyMutation, useIpoDetailQuery, useIpoPayMutation } from '../api/ipo-api';
import { DrawCard } from '../components/draw-card';
import { marketTypeLabel } from '../components/market-type';
import { KvLine } from '../../../ui/kv-line';
import { PhaseTag, StatusTag } from '../components/parts';
import { PricingLines, priceText } from '../components/pricing';
import '../ipo.css';

export function SubscribeDetailPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = useSelector(selectLoggedIn);
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const valid = Number.isInteger(id) && id > 0;
  const { data, isError } = useIpoDetailQuery(id, {
    skip: !loggedIn || !valid,
    refetchOnMountOrArgChange: true,
  });
  const [applyCall, applying] = useIpoApplyMutation();
  const [payCall, paying] = useIpoPayMutation();
  const applyKeys = useIdempotencyKeys();
  const payKeys = useIdempotencyKeys();

  if (!loggedIn)
    return (
      <Page title={t('ipo.detailTitle')}>
        <LoginPrompt />
      </Page>
    );
  if (!data)
    return (
      <Page title={t('ipo.detailTitle')}>
        <div className="center-fill">
          {isError || !valid ? t('errors.ipoNotFound') : <DotLoading color="primary" />}
        </div>
      </Page>
    );
  const { offering: o, application: a, draw } = data;
  const onApply = async () => {
    const ok = await Dialog.confirm({
      content: t('ipo.applyConfirm', {
        name: instrumentName(o, langOf(i18n.language)),
        shares: o.sharesPerApplication.toLocaleString(),
        amount: formatMinor(o.payableMinor ?? 0),
      }),
      confirmText: t('ipo.apply'),
      cancelText: t('common.cancel'),
    });
    if (ok) await sendWithKey(applyKeys, { offeringId: o.id }, applyCall);
  };
  const onPay = async () => {
    if (a) await sendWithKey(payKeys, { applicationId: a.id }, payCall);
  };
  const canApply = o.phase === 'inProgress' && o.stage === 'scheduled' && !a;
  return (
    <Page title={t('ipo.detailTitle')}>
      <section className="card" data-testid="ipo-detail">
        <div className="ipo-row-head">
          <span className="ipo-name">
            {instrumentName(o, langOf(i18n.language))} <span className="muted small">{o.symbol}</span>
          </span>
          <PhaseTag phase={o.phase} />
        </div>
        <p className="muted small">{t('ipo.today', { date: data.today })}</p>
        <KvLine label={t('ipo.marketType')} value={marketTypeLabel(o.marketType, t)} />
        <KvLine label={t('ipo.price')} value={priceText(o, t)} testId="ipo-price" />
        <KvLine
          label={t('ipo.marketPrice')}
          value={o.marketPriceMinor === null ? '' : formatMinor(o.marketPriceMinor)}
          testId="ipo-market-price"
        />
        <PricingLines o={o} />
        <KvLine label={t('ipo.units')} value={o.units.toLocaleString()} />
        <KvLine label={t('ipo.sharesPerApplication')} value={o.sharesPerApplication.toLocaleString()} />
        <KvLine label={t('ipo.pe')} value={o.pe ?? ''} />
        <KvLine label={t('ipo.industryPe')} value={o.industryPe ?? ''} />
        <KvLine label={t('ipo.applyDays')} value={`${o.applyStart} ~ ${o.applyEnd}`} />
        <KvLine label={t('ipo.deductionDate')} value={o.deductionDate} />
        <KvLine label={t('ipo.drawDate')} value={o.drawDate} />
        <KvLine label={t('ipo.refundDate')} value={o.refundDate} />
        <KvLine label={t('ipo.listingDate')} value={o.listingDate} />
        <KvLine label={t('ipo.applications')} value={String(o.applications)} />
        <KvLine
          label={t('ipo.payable')}
          value={o.payableMinor === null ? '' : formatMinor(o.payableMinor)}
          testId="ipo-payable"
        />
        <p className="muted small">
          {t('ipo.feeNote', {
            processing: formatMinor(IPO_PROCESSING_FEE_MINOR),
            notification: formatMinor(IPO_NOTIFICATION_FEE_MINOR),
          })}
        </p>
      </section>
      <section className="card" data-testid="ipo-mine">
        <div className="ipo-row-head">
          <h3 className="card-title">{t('ipo.myApplication')}</h3>
          {a && <StatusTag status={a.status} />}
        </div>
        {a ? (
          <>
            <KvLine label={t('ipo.draw.myNo')} value={a.applicationNo} />
            <KvLine label={t('ipo.paid')} value={formatMinor(a.paidMinor)} testId="ipo-paid" />
            <KvLine label={t('ipo.wonUnits')} value={String(a.wonUnits)} testId="ipo-won-units" />
            <KvLine label={t('ipo.refunded')} value={formatMinor(a.refundedMinor)} />
            {a.orderId !== null && (
              <div className="ipo-actions">
                <Button size="small" onClick={() => navigate(`/position/positionDetail?id=${a.orderId}`)}>
                  {t('ipo.openPosition')}
                </Button>
              </div>
            )}
          </>
        ) : (
          <p className="muted small">{t(canApply ? 'ipo.notApplied' : 'ipo.notOpen')}</p>
        )}
        <div className="ipo-actions">
          {canApply && (
            <Button color="primary" loading={applying.isLoading} onClick={onApply} data-testid="ipo-apply">
              {t('ipo.apply')}
            </Button>
          )}
          {a?.payable && (
            <Button color="warning" loading={paying.isLoading} onClick={onPay} data-testid="ipo-pay">
              {t('ipo.pay', { amount: formatMinor(a.payableMinor) })}
            </Button>
          )}
        </div>
      </section>
      <DrawCard draw={draw} application={a} />
    </Page>
  );
}
