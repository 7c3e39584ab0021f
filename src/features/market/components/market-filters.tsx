/**
 * Filters of the market list (market/list: exchange, kind, industry) as a dropdown bar. Kind is
 * the security type: stocks (common shares) or ETFs; industry applies to stocks (ETFs have none)
 * and lists the directory's industries (market/industries), named in the active language.
 */
import { CheckList, Dropdown, type DropdownRef } from 'antd-mobile';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useIndustriesQuery } from '../api/market-api';

/** The filters' values; '' = any. */
export interface MarketFilterValue {
  market: '' | 'TWSE' | 'TPEx';
  kind: '' | 'stock' | 'etf';
  industry: string;
}

const MARKETS = ['', 'TWSE', 'TPEx'] as const;
const KINDS = ['', 'stock', 'etf'] as const;

/** One single-choice list of a filter: `ranking.<group>.<option or "any">` labels. */
function Options<T extends string>({
  group,
  options,
  value,
  onPick,
}: {
  group: 'market' | 'kind';
  options: readonly T[];
  value: T;
  onPick: (v: T) => void;
}) {
  const { t } = useTranslation();
  return (
    <CheckList value={[value]} onChange={(v) => onPick((v[0] ?? '') as T)}>
      {options.map((o) => (
        <CheckList.Item key={o || 'any'} value={o} data-testid={`filter-${group}-${o || 'any'}`}>
          {t(`ranking.${group}.${o || 'any'}`)}
        </CheckList.Item>
      ))}
    </CheckList>
  );
}

/**
 * The industry list (market/industries, each with its count of stocks): a component of its own, so
 * its ~40 labels are looked up only when the dropdown shows it, not on every render of the bar.
 */
function IndustryOptions({ value, onPick }: { value: string; onPick: (industry: string) => void }) {
  const { t } = useTranslation();
  const { data } = useIndustriesQuery();
  return (
    <div className="industry-options">
      <CheckList value={[value]} onChange={(v) => onPick((v[0] as string) ?? '')}>
        <CheckList.Item value="" data-testid="filter-industry-any">
          {t('ranking.industryAny')}
        </CheckList.Item>
        {(data?.items ?? []).map((i) => (
          <CheckList.Item key={i.name} value={i.name} data-testid={`filter-industry-${i.name}`}>
            {t(`industry.${i.name}`, { defaultValue: i.name })} <span className="muted">{i.count}</span>
          </CheckList.Item>
        ))}
      </CheckList>
    </div>
  );
}

export function MarketFilters({
  value,
  onChange,
}: {
  value: MarketFilterValue;
  onChange: (next: MarketFilterValue) => void;
}) {
  const { t } = useTranslation();
  const ref = useRef<DropdownRef>(null);
  // Fetched with the bar (not when the dropdown opens), so the list is there when it is shown.
  useIndustriesQuery();
  const industryName = (name: string) => t(`industry.${name}`, { defaultValue: name });
  const pick = (next: Partial<MarketFilterValue>) => {
    onChange({ ...value, ...next });
    ref.current?.close();
  };
  return (
    <Dropdown ref={ref} className="market-filters" data-testid="market-filters">
      <Dropdown.Item
        key="market"
        title={<span data-testid="filter-market">{t(`ranking.market.${value.market || 'any'}`)}</span>}
      >
        <Options
          group="market"
          options={MARKETS}
          value={value.market}
          onPick={(market) => pick({ market })}
        />
      </Dropdown.Item>
      <Dropdown.Item
        key="kind"
        title={<span data-testid="filter-kind">{t(`ranking.kind.${value.kind || 'any'}`)}</span>}
      >
        <Options
          group="kind"
          options={KINDS}
          value={value.kind}
          onPick={(kind) => pick({ kind, industry: kind === 'etf' ? '' : value.industry })}
        />
      </Dropdown.Item>
      <Dropdown.Item
        key="industry"
        title={
          <span data-testid="filter-industry" className="filter-industry-title">
            {value.industry ? industryName(value.industry) : t('ranking.industryAny')}
          </span>
        }
      >
        <IndustryOptions
          value={value.industry}
          onPick={(industry) => pick({ industry, kind: industry ? 'stock' : value.kind })}
        />
      </Dropdown.Item>
    </Dropdown>
  );
}
