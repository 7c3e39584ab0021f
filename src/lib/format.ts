/**
 * Display formatting (product-spec §9 "Money format", "Large-number display", long strings).
 * Pure functions, no React: the same rules render in the app, the operator console and tests.
 *
 * Money on the wire is integer minor units (contract/money.ts); `formatMinor` formats those
 * exactly with string arithmetic, never through a float. `formatMoney` is the spec's lenient
 * filter for values that are already in major units (or may be empty / not numeric).
 */
import { minorToDecimal, type Minor } from '../../contract/money';

export type Lang = 'tw' | 'en';

/** Groups the integer part of a plain decimal string ("-1234567.5" → "-1,234,567.5"). */
function groupDecimalString(s: string): string {
  const neg = s.startsWith('-');
  const body = neg ? s.slice(1) : s;
  const [int = '0', frac] = body.split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${neg ? '-' : ''}${grouped}${frac !== undefined ? `.${frac}` : ''}`;
}

/**
 * The spec's money filter: 2 decimals with thousands separators; '0.00' for empty or
 * non-numeric input (null, undefined, '', 'abc', NaN, ±Infinity).
 */
export function formatMoney(value: unknown): string {
  if (value === null || value === undefined) return '0.00';
  if (typeof value === 'string' && value.trim() === '') return '0.00';
  if (typeof value !== 'number' && typeof value !== 'string') return '0.00';
  const n = typeof value === 'number' ? value : Number(value.trim());
  if (!Number.isFinite(n)) return '0.00';
  const fixed = n.toFixed(2);
  // toFixed keeps "-0.00" for tiny negatives; show it as zero.
  return groupDecimalString(fixed === '-0.00' ? '0.00' : fixed);
}

/** Integer minor units → "1,234.50" exactly; '0.00' when the value is missing or not an integer. */
export function formatMinor(minor: Minor | null | undefined): string {
  if (minor === null || minor === undefined || !Number.isSafeInteger(minor)) return '0.00';
  return groupDecimalString(minorToDecimal(minor));
}

/** Minor units with an explicit sign for changes and P&L: "+12.50", "-3.00", "0.00". */
export function formatSignedMinor(minor: Minor | null | undefined): string {
  const s = formatMinor(minor);
  return minor !== null && minor !== undefined && minor > 0 ? `+${s}` : s;
}

/** Price in minor units as the plain decimal number used in inputs ("1005.5" → "1005.50"). */
export function minorToInput(minor: Minor): string {
  return minorToDecimal(minor);
}

/** Ratio as a signed percentage with 2 decimals ("+1.23%"); '0.00%' when the base is 0 or missing. */
export function formatPercent(numerator: number, denominator: number): string {
  if (!Number.isFinite(numerator) || !Number.isFinite(denominator) || denominator === 0) return '0.00%';
  const pct = (numerator / denominator) * 100;
  const fixed = pct.toFixed(2);
  if (fixed === '0.00' || fixed === '-0.00') return '0.00%';
  return `${pct > 0 ? '+' : ''}${fixed}%`;
}

/**
 * Compact units by language, largest first: powers of ten and their suffixes, as ICU's compact
 * short notation writes them for zh-TW (萬 10^4, 億 10^8, 兆 10^12) and en (K, M, B, T).
 */
const COMPACT_UNITS: Record<Lang, ReadonlyArray<readonly [number, string]>> = {
  tw: [
    [12, '兆'],
    [8, '億'],
    [4, '萬'],
  ],
  en: [
    [12, 'T'],
    [9, 'B'],
    [6, 'M'],
    [3, 'K'],
  ],
};

/** The integer digits of a non-negative decimal string, grouped by 3 from 5 digits on (ICU's "min2"). */
const groupMin2 = (int: string): string => (int.length < 5 ? int : int.replace(/\B(?=(\d{3})+(?!\d))/g, ','));

/**
 * `digits` (a decimal string of a non-negative number, no exponent) divided by 10^shift and
 * rounded half away from zero to 2 decimals: [integer digits, fraction digits without trailing
 * zeros]. Decimal string arithmetic, as ICU rounds the number's shortest decimal form.
 */
function shiftRound(digits: string, shift: number): [string, string] {
  const [int = '0', frac = ''] = digits.split('.');
  const all = int + frac;
  const point = int.length - shift; // digits of `all` before the decimal point
  const padded = (point < 0 ? '0'.repeat(-point) : '') + all;
  const p = Math.max(point, 0);
  const kept = padded.slice(0, p + 2).padEnd(p + 2, '0');
  let n = BigInt(kept || '0');
  if ((padded[p + 2] ?? '0') >= '5') n += 1n;
  const str = n.toString().padStart(3, '0');
  return [str.slice(0, -2).replace(/^0+(?=\d)/, ''), str.slice(-2).replace(/0+$/, '')];
}

/**
 * Large numbers in compact form: 12,345 → "1.23萬" (tw) / "12.35K" (en). Values below the first
 * compact unit keep up to 2 decimals. '0' for missing or non-numeric input.
 */
export function formatCompact(value: number | null | undefined, lang: Lang): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '0';
  // The same strings as Intl.NumberFormat(zh-TW | en, { notation: 'compact', maximumFractionDigits:
  // 2 }) (tests/unit/format-compact.test.ts compares them), without its cost: building that
  // formatter takes 30-110 ms of one task on a desktop CPU, once per page load.
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  const abs = Math.abs(value);
  const digits = abs < 1e21 ? String(abs) : BigInt(abs).toString();
  const expo = /e-/.test(digits) ? '0' : digits; // below 1e-6: rounds to 0
  const magnitude = abs >= 1 ? expo.split('.')[0]!.length - 1 : 0;
  const units = COMPACT_UNITS[lang];
  let i = units.findIndex(([k]) => k <= magnitude);
  for (;;) {
    const [shift, suffix] = i >= 0 ? units[i]! : [0, ''];
    const [int, frac] = shiftRound(expo, shift);
    // Rounding that reaches the next unit (999,999 → 1,000K) is written in that unit (1M), as ICU does.
    const next = i > 0 ? units[i - 1]! : i < 0 ? units[units.length - 1]! : null;
    if (next && int.length - 1 + shift >= next[0]) {
      i = i < 0 ? units.length - 1 : i - 1;
      continue;
    }
    return `${sign}${groupMin2(int)}${frac ? `.${frac}` : ''}${suffix}`;
  }
}

/** Minor units shown compactly in major units (turnover: NT$ 1.23億). */
export function formatCompactMinor(minor: Minor | null | undefined, lang: Lang): string {
  if (minor === null || minor === undefined || !Number.isFinite(minor)) return '0';
  return formatCompact(minor / 100, lang);
}

/** Shares → lots for display (1 lot = 1000 shares), compacted. */
export function formatLots(shares: number | null | undefined, lang: Lang): string {
  if (shares === null || shares === undefined || !Number.isFinite(shares)) return '0';
  return formatCompact(Math.floor(shares / 1000), lang);
}

/** Long strings (> 20 characters) → first 6 + '…' + last 6 (order numbers, tokens, addresses). */
export function shortenMiddle(s: string | null | undefined): string {
  if (!s) return '';
  const chars = Array.from(s);
  if (chars.length <= 20) return s;
  return `${chars.slice(0, 6).join('')}…${chars.slice(-6).join('')}`;
}

/**
 * Made on first use: an Intl formatter with a time zone costs ~25 ms on a phone (ICU's zone data)
 * when built, and this module loads with every screen that formats a price.
 */
let dateTimeFmt: Intl.DateTimeFormat | undefined;
const newDateTimeFmt = (): Intl.DateTimeFormat =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Asia/Taipei',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  });

/**
 * Makes formatDateTime's formatter now if it is not made yet. The page's first Intl object pays
 * ICU's initialisation (~30 ms on a desktop CPU, 4× that on a mid-range phone), whichever object
 * it is: a screen that is about to make one inside a long task (the candle chart's klinecharts
 * makes its own) calls this in a task of its own first.
 */
export function warmDateTimeFormat(): void {
  dateTimeFmt ??= newDateTimeFmt();
}

/** Epoch ms → "2024-05-16 10:45:54" in Taiwan time; '--' when missing. */
export function formatDateTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '--';
  dateTimeFmt ??= newDateTimeFmt();
  const parts = Object.fromEntries(dateTimeFmt.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  const hour = parts.hour === '24' ? '00' : parts.hour;
  return `${parts.year}-${parts.month}-${parts.day} ${hour}:${parts.minute}:${parts.second}`;
}

/** The app language for an i18next language code. */
export function langOf(language: string | undefined): Lang {
  return language === 'en' ? 'en' : 'tw';
}

/** A price that may not exist yet (an order not filled, a position not closed): '--' when null. */
export function formatMinorOrDash(minor: Minor | null | undefined): string {
  return minor === null || minor === undefined ? '--' : formatMinor(minor);
}
