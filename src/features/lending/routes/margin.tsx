/**
 * /common/margin (home shortcut "margin loan and short selling", 融資融券; not a spec route): the
 * member's leveraged longs as margin loans (融資: the platform finances open value − margin) and
 * shorts as short sales (融券, with the shares borrowed from the lending pool), each with used
 * margin, position maintenance ratio, liquidation price and fees; the account's maintenance ratio
 * and thresholds. Every figure comes from lending/margin, which reads the risk module's
 * (contract/risk.ts accountRisk) marks of the positions.
 */
import { DotLoading } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import type { MarginPosition } from '../../../../contract/lending';
import { selectLoggedIn } from '../../../api/session';
import { changeColor } from '../../../lib/colors';
import { formatMinor, formatSignedMinor, langOf } from '../../../lib/format';
import { instrumentName } from '../../../live/names-en';
import { LoginPrompt } from '../../../ui/login-prompt';
import { Page } from '../../../ui/page';
import { useMarginViewQuery } from '../api/lending-api';
import { KvLine } from '../../../ui/kv-line';
import '../lending.css';
import { formatBps } from '../../../../contract/money';

function PositionRow({ p }: { p: MarginPosition }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="lending-row" data-testid="margin-position" data-side={p.side}>
      <div className="lending-row-head">
        <span className="lending-name">
          {instrumentName(p, langOf(i18n.language))} <span className="muted small">{p.symbol}</span>
        </span>
        <span className="muted small">
          {t('margin.leverage')} {p.leverage}×
        </span>
      </div>
      <div className="margin-grid">
        <KvLine label={t('margin.shares')} value={p.shares.toLocaleString()} />
        <KvLine label={t('margin.mark')} value={formatMinor(p.markMinor)} />
        <KvLine label={t('margin.margin')} value={formatMinor(p.marginMinor)} />
        <KvLine
          label={t(p.side === 'long' ? 'margin.financed' : 'margin.shortValue')}
          value={formatMinor(p.financedMinor)}
        />
        <KvLine
          label={t('margin.pnl')}
          value={
            <span style={{ color: changeColor(p.unrealisedPnlMinor) }}>
              {formatSignedMinor(p.unrealisedPnlMinor)}
            </span>
          }
        />
        <KvLine label={t('margin.posRatio')} value={p.ratioBps === null ? '' : formatBps(p.ratioBps)} />
        <KvLine
          label={t('margin.liq')}
          value={p.liquidationPriceMinor === null ? '' : formatMinor(p.liquidationPriceMinor)}
        />
        <KvLine label={t('margin.fees')} value={formatMinor(p.feesMinor)} />
        {p.side === 'short' && (
          <KvLine label={t('margin.borrowed')} value={p.borrowedShares.toLocaleString()} />
        )}
      </div>
    </div>
  );
}

export function MarginPage() {
  const { t } = useTranslation();
  const loggedIn = useSelector(selectLoggedIn);
  const { data } = useMarginViewQuery(undefined, { skip: !loggedIn, pollingInterval: 5_000 });
  if (!loggedIn)
    return (
      <Page title={t('margin.title')}>
        <LoginPrompt />
      </Page>
    );
  if (!data)
    return (
      <Page title={t('margin.title')}>
        <div className="center-fill">
          <DotLoading color="primary" />
        </div>
      </Page>
    );
  return (
    <Page title={t('margin.title')}>
      <section className="card" data-testid="margin-summary">
        <KvLine
          label={t('margin.ratio')}
          value={data.ratioBps === null ? '' : formatBps(data.ratioBps)}
          testId="margin-ratio"
        />
        <KvLine label={t('margin.level')} value={t(`margin.levelName.${data.level}`)} />
        <KvLine
          label={t('margin.usedMargin')}
          value={formatMinor(data.usedMarginMinor)}
          testId="margin-used"
        />
        <KvLine label={t('margin.equity')} value={formatMinor(data.equityMinor)} />
        <p className="muted small">
          {t('margin.maintenance', {
            call: formatBps(data.marginCallBps),
            maint: formatBps(data.maintenanceBps),
          })}
        </p>
      </section>
      <h3 className="card-title lending-section">{t('margin.loans')}</h3>
      <div className="list-card" data-testid="margin-loans">
        {data.marginLoans.length === 0 ? (
          <p className="muted small lending-row">{t('margin.noLoans')}</p>
        ) : (
          data.marginLoans.map((p) => <PositionRow key={p.orderId} p={p} />)
        )}
      </div>
      <h3 className="card-title lending-section">{t('margin.shorts')}</h3>
      <div className="list-card" data-testid="margin-shorts">
        {data.shortSales.length === 0 ? (
          <p className="muted small lending-row">{t('margin.noShorts')}</p>
        ) : (
          data.shortSales.map((p) => <PositionRow key={p.orderId} p={p} />)
        )}
      </div>
    </Page>
  );
}
