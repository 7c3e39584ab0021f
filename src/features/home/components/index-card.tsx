/**
 * The home screen's index card: the TAIEX's last value, change and date (market/indices). Before
 * the answer it keeps its place with dashes, so the shortcuts under it never move when it comes
 * (no layout shift). The static shell's copy is filled by src/app/shell-fill.ts with the same
 * figures (../index-figures.ts), so the app's first render replaces it without a change.
 */
import { useTranslation } from 'react-i18next';
import { useIndicesQuery } from '../../../api/api';
import { basisOf, homeIndex, indexFigures } from '../index-figures';

export function IndexCard() {
  const { t } = useTranslation();
  const { data } = useIndicesQuery();
  const ix = homeIndex(data?.items);
  const f = ix ? indexFigures(ix) : null;
  return (
    <section className="card index-card" data-testid="home-index" data-filled={ix ? '' : undefined}>
      <div className="index-card-head">
        <span className="index-name">
          {ix ? t(`indexName.${ix.code}`, { defaultValue: ix.name }) : t('indexName.TAIEX')}
        </span>
        <span className="muted small index-date">{t('market.indexDate', { date: ix?.date ?? '--' })}</span>
      </div>
      <div className="index-card-last" style={f ? { color: f.color } : undefined}>
        {f?.last ?? '--'}
      </div>
      <div className="index-card-change" style={f ? { color: f.color } : undefined}>
        {f?.change ?? '--'}
      </div>
      <div className="muted small index-card-basis" data-testid="home-index-basis" data-basis={basisOf(ix)}>
        <span className="basis-estimate">{t('market.indexEstimate')}</span>
        <span className="basis-official">{t('market.indexOfficial')}</span>
      </div>
    </section>
  );
}
