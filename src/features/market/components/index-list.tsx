/**
 * Index figures from market/indices with their date: an estimate while the replayed session runs
 * (`estimate`), the official daily close otherwise; the note above the list says which.
 */
import { DotLoading, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useIndicesQuery } from '../../../api/api';
import { NoData } from '../../../ui/no-data';
import { ChangeText, PercentText, PriceText } from '../../../ui/price-text';

export function IndexList() {
  const { t } = useTranslation();
  const { data, isLoading } = useIndicesQuery();
  if (isLoading)
    return (
      <div className="center-fill">
        <DotLoading color="primary" />
      </div>
    );
  const items = data?.items ?? [];
  if (!items.length) return <NoData />;
  return (
    <>
      <div className="hint-text" data-testid="index-basis">
        {t(items.some((ix) => ix.estimate) ? 'market.indexEstimate' : 'market.indexOfficial')}
      </div>
      <List>
        {items.map((ix) => {
          const change = ix.lastMinor - ix.prevCloseMinor;
          return (
            <List.Item
              key={ix.code}
              data-testid={`index-row-${ix.code}`}
              description={t('market.indexDate', { date: ix.date })}
              extra={
                <div className="index-extra">
                  <PriceText className="index-last" valueMinor={ix.lastMinor} changeMinor={change} />
                  <div>
                    <ChangeText changeMinor={change} />{' '}
                    <PercentText changeMinor={change} baseMinor={ix.prevCloseMinor} />
                  </div>
                </div>
              }
            >
              {t(`indexName.${ix.code}`, { defaultValue: ix.name })} <span className="muted">{ix.code}</span>
            </List.Item>
          );
        })}
      </List>
    </>
  );
}
