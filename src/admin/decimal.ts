/**
 * Decimal text typed by an operator → the contract's integers, exactly, by string parsing (never
 * through a float): money as minor units (contract/money.ts `toMinor`, at most 2 decimals) and
 * exchange rates as parts per million (at most 6 decimals, contract/funds.ts `fxRateSchema`).
 * Each parser returns null for anything that is not a positive value it can represent exactly.
 */
import { minorToDecimal, toMinor } from '../../contract/money';

/** Millionths per unit of an exchange rate. */
export const PPM_PER_UNIT = 1_000_000;
/** Largest rate the contract accepts (contract/admin.ts `saveRateReq`: ≤ 1e15 ppm). */
export const MAX_RATE_PPM = 1e15;

/** "31.475" → 31_475_000; null when empty, zero, negative, over 6 decimals or over MAX_RATE_PPM. */
export function rateToPpm(text: string): number | null {
  const m = /^(\d+)(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!m) return null;
  const ppm = BigInt(m[1]!) * BigInt(PPM_PER_UNIT) + BigInt((m[2] ?? '').padEnd(6, '0'));
  if (ppm <= 0n || ppm > BigInt(MAX_RATE_PPM)) return null;
  return Number(ppm);
}

/** 31_475_000 → "31.475": at least 2 decimals, trailing zeros beyond them dropped. */
export function ppmToRate(ppm: number): string {
  if (!Number.isSafeInteger(ppm)) return '--';
  const neg = ppm < 0;
  const abs = Math.abs(ppm);
  const int = Math.floor(abs / PPM_PER_UNIT);
  let frac = String(abs % PPM_PER_UNIT).padStart(6, '0');
  while (frac.length > 2 && frac.endsWith('0')) frac = frac.slice(0, -1);
  return `${neg ? '-' : ''}${int}.${frac}`;
}

/** "1000.5" → 100_050 minor units; null when empty, zero, negative, over 2 decimals or unsafe. */
export function amountToMinor(text: string): number | null {
  const s = text.trim().replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(s)) return null;
  try {
    const minor = toMinor(s);
    return minor > 0 ? minor : null;
  } catch {
    return null;
  }
}

/** Minor units → the plain decimal an input shows ("100050" → "1000.50"). */
export function minorToAmount(minor: number): string {
  return minorToDecimal(minor);
}
