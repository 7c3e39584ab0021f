/**
 * The chart's period selector: every candle period (contract CANDLE_PERIODS: 1m … 1y) in one row
 * of equal cells that always fits the card (7 cells in 390 px), so no period hides behind a
 * sideways scroll. A tab list: arrow keys move between periods, the selected one is in tab order.
 */
import { useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CANDLE_PERIODS, type CandlePeriod } from '../../../../contract/constants';
import './period-selector.css';

export function PeriodSelector({
  value,
  onChange,
}: {
  value: CandlePeriod;
  onChange: (p: CandlePeriod) => void;
}) {
  const { t } = useTranslation();
  const list = useRef<HTMLDivElement>(null);
  const onKey = (e: KeyboardEvent) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    e.preventDefault();
    const n = CANDLE_PERIODS.length;
    const next = CANDLE_PERIODS[(CANDLE_PERIODS.indexOf(value) + step + n) % n]!;
    onChange(next);
    list.current?.querySelector<HTMLButtonElement>(`[data-period="${next}"]`)?.focus();
  };
  return (
    <div
      className="period-selector"
      role="tablist"
      aria-label={t('detail.chart')}
      ref={list}
      onKeyDown={onKey}
    >
      {CANDLE_PERIODS.map((p) => (
        <button
          key={p}
          type="button"
          role="tab"
          aria-selected={p === value}
          tabIndex={p === value ? 0 : -1}
          className={p === value ? 'period-cell active' : 'period-cell'}
          data-period={p}
          data-testid={`period-${p}`}
          onClick={() => onChange(p)}
        >
          {t(`period.${p}`)}
        </button>
      ))}
    </div>
  );
}
