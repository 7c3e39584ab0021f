/** Prices and changes coloured by the currency's up/down convention (TWD: up red, down green). */
import type { CSSProperties } from 'react';
import { changeColor, type Currency } from '../lib/colors';
import { formatMinor, formatPercent, formatSignedMinor } from '../lib/format';

interface Common {
  currency?: Currency;
  className?: string;
  style?: CSSProperties;
  testId?: string;
}

/** A price coloured by its change against a reference (e.g. the previous close). */
export function PriceText({
  valueMinor,
  changeMinor,
  currency = 'TWD',
  className,
  style,
  testId,
}: Common & { valueMinor: number | null | undefined; changeMinor: number | null | undefined }) {
  return (
    <span
      className={className}
      style={{ color: changeColor(changeMinor, currency), ...style }}
      data-testid={testId}
      data-direction={
        changeMinor && changeMinor > 0 ? 'up' : changeMinor && changeMinor < 0 ? 'down' : 'flat'
      }
    >
      {formatMinor(valueMinor)}
    </span>
  );
}

/** A signed amount (change, P&L) coloured by its own sign. */
export function ChangeText({
  changeMinor,
  currency = 'TWD',
  className,
  style,
  testId,
}: Common & { changeMinor: number | null | undefined }) {
  return (
    <span
      className={className}
      style={{ color: changeColor(changeMinor, currency), ...style }}
      data-testid={testId}
    >
      {formatSignedMinor(changeMinor)}
    </span>
  );
}

/** A change in percent of a base, coloured by sign. */
export function PercentText({
  changeMinor,
  baseMinor,
  currency = 'TWD',
  className,
  style,
  testId,
}: Common & { changeMinor: number; baseMinor: number }) {
  return (
    <span
      className={className}
      style={{ color: changeColor(changeMinor, currency), ...style }}
      data-testid={testId}
    >
      {formatPercent(changeMinor, baseMinor)}
    </span>
  );
}
