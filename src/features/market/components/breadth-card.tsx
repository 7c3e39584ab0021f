/**
 * Market breadth of the replayed day (market/breadth, refreshed every second): advancers in red,
 * decliners in green (TWD colours), unchanged and not-traded in grey, and turnover, for the
 * whole market and each exchange, labelled with the replayed date.
 */
import { DotLoading } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { BreadthCounts } from '../../../../contract/market';
import { changeColor } from '../../../lib/colors';
import { formatCompactMinor, langOf } from '../../../lib/format';
import { useBreadthQuery } from '../api/market-api';
import '../market.css';

/** The counted fields with the sign of the change their colour follows (null: grey). */
const CELLS: ReadonlyArray<
  [keyof BreadthCounts & ('advancers' | 'decliners' | 'unchanged' | 'notTraded'), number | null]
> = [
  ['advancers', 1],
  ['decliners', -1],
  ['unchanged', null],
  ['notTraded', null],
];

function Counts({ c, testId }: { c: BreadthCounts; testId: string }) {
  const { t, i18n } = useTranslation();
  const lang = langOf(i18n.language);
  return (
    <div className="breadth-grid" data-testid={testId}>
      {CELLS.map(([key, color]) => (
        <div key={key}>
          <div className="breadth-label">{t(`ranking.breadth.${key}`)}</div>
          <div
            className={`breadth-num num${color === null ? ' muted' : ''}`}
            style={color === null ? undefined : { color: changeColor(color) }}
            data-testid={`${testId}-${key}`}
          >
            {c[key]}
          </div>
        </div>
      ))}
      <div className="breadth-turnover">
        <span className="breadth-label">{t('ranking.breadth.turnover')}</span>{' '}
        <span className="num">
          {t('ranking.breadth.twd', { amount: formatCompactMinor(c.turnoverMinor, lang) })}
        </span>
      </div>
    </div>
  );
}

export function BreadthCard() {
  const { t } = useTranslation();
  const { data, isLoading } = useBreadthQuery(undefined, { pollingInterval: 1000 });
  if (isLoading || !data)
    return (
      <div className="center-fill">
        <DotLoading color="primary" />
      </div>
    );
  return (
    <div className="breadth-card" data-testid="breadth-card">
      <div className="breadth-title">
        {t('ranking.breadth.title')}
        {data.replayDate && (
          <span className="replay-label breadth-date" data-testid="breadth-date">
            {t('market.replayOf', { date: data.replayDate })}
          </span>
        )}
      </div>
      <Counts c={data.all} testId="breadth-all" />
      <div className="breadth-sub">{t('ranking.market.TWSE')}</div>
      <Counts c={data.byMarket.TWSE} testId="breadth-twse" />
      <div className="breadth-sub">{t('ranking.market.TPEx')}</div>
      <Counts c={data.byMarket.TPEx} testId="breadth-tpex" />
    </div>
  );
}
