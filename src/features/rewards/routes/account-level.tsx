/**
 * /user/accountLevel: the member's account level, its fee discount, the two figures it is
 * computed from (total assets from the ledger, 30-day trading volume from the fills), progress
 * towards the next level, and the level table (user/accountLevel; docs/levels.md).
 */
import { DotLoading, ProgressBar } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import type { Level } from '../../../../contract/rewards';
import { selectLoggedIn } from '../../../api/session';
import { formatMinor } from '../../../lib/format';
import { useAccountLevelQuery } from '../api/rewards-api';
import '../rewards.css';
import { LabeledValue } from '../../../ui/labeled-value';
import { LoginPrompt } from '../../../ui/login-prompt';
import { Page } from '../../../ui/page';
import { formatBps } from '../../../../contract/money';

/** Share of `need` reached by `have`, 0–100 (100 when nothing is needed). */
const percentOf = (have: number, need: number) =>
  need <= 0 ? 100 : Math.min(100, Math.floor((have * 100) / need));

export function AccountLevelPage() {
  const { t } = useTranslation();
  const loggedIn = useSelector(selectLoggedIn);
  const { data } = useAccountLevelQuery(undefined, { skip: !loggedIn, refetchOnMountOrArgChange: true });
  if (!loggedIn)
    return (
      <Page title={t('rewards.levelTitle')}>
        <LoginPrompt />
      </Page>
    );
  if (!data)
    return (
      <Page title={t('rewards.levelTitle')}>
        <div className="center-fill">
          <DotLoading color="primary" />
        </div>
      </Page>
    );
  const { current, next } = data;
  const row = (l: Level) => (
    <tr key={l.level} className={l.level === current.level ? 'rw-current' : ''}>
      <td>{l.name}</td>
      <td>{formatMinor(l.minAssetsMinor)}</td>
      <td>{formatMinor(l.minVolume30dMinor)}</td>
      <td>{formatBps(l.feeDiscountBps, { trim: true })}</td>
    </tr>
  );
  return (
    <Page title={t('rewards.levelTitle')}>
      <section className="card rw-card" data-testid="level-current">
        <div className="muted small">{t('rewards.accountLevel')}</div>
        <div className="rw-big" data-testid="level-name">
          {current.name}
        </div>
        <div data-testid="level-discount">
          {t('rewards.feeOff', { percent: formatBps(current.feeDiscountBps, { trim: true }) })}
        </div>
        <div className="uc-grid">
          <LabeledValue
            layout="figure"
            label={t('rewards.totalAssets')}
            value={formatMinor(data.totalAssetsMinor)}
            testId="level-assets"
          />
          <LabeledValue
            layout="figure"
            label={t('rewards.volume30d')}
            value={formatMinor(data.volume30dMinor)}
            testId="level-volume"
          />
        </div>
      </section>
      <section className="card" data-testid="level-next">
        <h3 className="card-title">
          {next ? t('rewards.nextLevel', { name: next.name }) : t('rewards.topLevel')}
        </h3>
        {next && (
          <>
            <div className="small">
              {t('rewards.totalAssets')}: {formatMinor(data.totalAssetsMinor)} /{' '}
              {formatMinor(next.minAssetsMinor)}
            </div>
            <ProgressBar
              className="rw-progress"
              percent={percentOf(data.totalAssetsMinor, next.minAssetsMinor)}
              data-testid="level-progress-assets"
            />
            <div className="small">
              {t('rewards.volume30d')}: {formatMinor(data.volume30dMinor)} /{' '}
              {formatMinor(next.minVolume30dMinor)}
            </div>
            <ProgressBar
              className="rw-progress"
              percent={percentOf(data.volume30dMinor, next.minVolume30dMinor)}
              data-testid="level-progress-volume"
            />
            <p className="muted small">{t('rewards.levelRule')}</p>
          </>
        )}
      </section>
      <section className="card">
        <h3 className="card-title">{t('rewards.levelTable')}</h3>
        <table className="rw-table" data-testid="level-table">
          <thead>
            <tr>
              <th>{t('rewards.level')}</th>
              <th>{t('rewards.minAssets')}</th>
              <th>{t('rewards.minVolume')}</th>
              <th>{t('rewards.discount')}</th>
            </tr>
          </thead>
          <tbody>{data.levels.map(row)}</tbody>
        </table>
      </section>
    </Page>
  );
}
