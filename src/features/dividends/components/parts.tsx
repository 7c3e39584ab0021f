/**
 * Pieces the dividend screens share: the links between the three screens and one ex-dividend
 * event row (their lists are src/ui/infinite-list.tsx).
 */
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { ExRightsEvent } from '../../../../contract/dividends';
import { formatMinor, langOf } from '../../../lib/format';
import { instrumentName } from '../../../live/names-en';
import { exRightsKindLabel } from './kind';
import { dividendPerShareMinor } from '../../../../contract/dividends';

/**
 * A per-share cash dividend as money: the currency's 2 decimals with separators ("4.50"), not the
 * data's 6 ("4.500020"); the exact text stays in the element's title. `--` without one.
 */
export function formatDividend(cash: string | null | undefined): string {
  if (cash === null || cash === undefined || cash === '') return '--';
  try {
    return formatMinor(dividendPerShareMinor(cash));
  } catch {
    return cash;
  }
}

/** The three dividend screens as a segmented link row (the current one highlighted). */
export function DividendNav({ current }: { current: 'calendar' | 'stocks' | 'history' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const links = [
    { key: 'calendar', to: '/common/dividend' },
    { key: 'stocks', to: '/common/dividend2' },
  ] as const;
  return (
    <div className="dividend-nav">
      {links.map((l) => (
        <span
          key={l.key}
          role="link"
          data-testid={`dividend-nav-${l.key}`}
          className={current === l.key ? 'dividend-nav-on' : ''}
          onClick={() => navigate(l.to, { replace: true })}
        >
          {t(`dividend.nav.${l.key}`)}
        </span>
      ))}
    </div>
  );
}

/** "in 3 days" / "today" / "2 days ago" on the replay calendar, or '' outside the cycle. */
function DaysAway({ days }: { days: number | null }) {
  const { t } = useTranslation();
  if (days === null) return null;
  return (
    <span className="muted small">
      {days === 0
        ? t('dividend.today')
        : days > 0
          ? t('dividend.inDays', { count: days })
          : t('dividend.daysAgo', { count: -days })}
    </span>
  );
}

/** One ex-rights/ex-dividend event; opens the stock's dividend history. */
export function EventRow({ e, showDate = true }: { e: ExRightsEvent; showDate?: boolean }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  return (
    <div
      className="dividend-row"
      role="link"
      data-testid={`dividend-event-${e.symbol}-${e.exDate}`}
      onClick={() => navigate(`/common/dividend3?symbol=${e.symbol}`)}
    >
      <div className="dividend-row-head">
        <span className="dividend-name">
          {instrumentName(e, langOf(i18n.language))} <span className="muted small">{e.symbol}</span>
        </span>
        {showDate ? (
          <span>
            {e.exDate} <DaysAway days={e.daysAway} />
          </span>
        ) : (
          <DaysAway days={e.daysAway} />
        )}
      </div>
      <div className="dividend-grid">
        <div>
          <div className="muted small">{t('dividend.cash')}</div>
          <div data-testid="dividend-cash" title={e.cashDividend ?? undefined}>
            {formatDividend(e.cashDividend)}
          </div>
        </div>
        <div>
          <div className="muted small">{t('dividend.closeBefore')}</div>
          <div>{formatMinor(e.closeBeforeMinor)}</div>
        </div>
        <div>
          <div className="muted small">{t('dividend.reference')}</div>
          <div data-testid="dividend-reference">{formatMinor(e.referenceMinor)}</div>
        </div>
      </div>
      <div className="muted small">
        {e.market} · {exRightsKindLabel(e.kindZh, t)}
        {e.stockDividendRatio ? ` · ${t('dividend.stockRatio')} ${e.stockDividendRatio}` : ''}
      </div>
    </div>
  );
}
