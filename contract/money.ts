/**
 * Money and price arithmetic: the one module that owns rounding.
 *
 * Units: every amount and price is an integer number of **minor units** (hundredths of the
 * currency: for TWD 1 NT$ = 100 minor). Names end in `Minor`. Quantities are integer shares.
 * Rates are integer **parts per million** (ppm): 0.1425 % = 1_425 ppm, 0.3 % = 3_000 ppm, so no
 * float ever touches money. All values stay within Number.MAX_SAFE_INTEGER; every function
 * asserts it and throws RangeError otherwise.
 */

export type Minor = number;

/** Minor units per major unit (TWD and USD both have 2 decimals). */
export const MINOR_PER_MAJOR = 100;

function assertSafe(n: number, what: string): void {
  if (!Number.isSafeInteger(n)) throw new RangeError(`${what} is not a safe integer: ${n}`);
}

/** price (minor per share) × shares → notional (minor). */
export function notionalMinor(priceMinor: Minor, shares: number): Minor {
  assertSafe(priceMinor, 'price');
  assertSafe(shares, 'shares');
  const v = priceMinor * shares;
  assertSafe(v, 'notional');
  return v;
}

/**
 * amount × rate (ppm), truncated **down to whole major units** (NT$): Taiwan brokers and the
 * tax office drop fractions of a dollar for commission and securities transaction tax
 * (⚠ broker practice, docs/tw-market-rules.md "Commission" / "Securities transaction tax").
 */
export function ppmFloorToMajor(amountMinor: Minor, ratePpm: number): Minor {
  assertSafe(amountMinor, 'amount');
  const raw = BigInt(amountMinor) * BigInt(ratePpm);
  const perMajor = BigInt(MINOR_PER_MAJOR) * 1_000_000n;
  return Number((raw / perMajor) * BigInt(MINOR_PER_MAJOR));
}

/** a ÷ b rounded **up** to the next minor unit (used for margin: the platform never under-collects). */
export function divCeil(aMinor: Minor, b: number): Minor {
  assertSafe(aMinor, 'amount');
  if (!Number.isSafeInteger(b) || b <= 0) throw new RangeError(`divisor must be a positive integer: ${b}`);
  return Math.floor((aMinor + b - 1) / b);
}

/**
 * ⌊a × b ÷ c⌋ exactly (BigInt inside, rounded toward −∞ also for negative products): ratios in
 * basis points and prices solved from money, where the product may exceed 2^53.
 * @throws RangeError when an input or the result is not a safe integer, or c ≤ 0.
 */
export function mulDivFloor(a: number, b: number, c: number): number {
  assertSafe(a, 'a');
  assertSafe(b, 'b');
  if (!Number.isSafeInteger(c) || c <= 0) throw new RangeError(`divisor must be a positive integer: ${c}`);
  const n = BigInt(a) * BigInt(b);
  const d = BigInt(c);
  let q = n / d; // truncates toward zero
  if (n % d !== 0n && n < 0n) q -= 1n;
  const out = Number(q);
  assertSafe(out, 'quotient');
  return out;
}

/** ⌈a × b ÷ c⌉ exactly (the mirror of mulDivFloor: rounded toward +∞). Same errors. */
export function mulDivCeil(a: number, b: number, c: number): number {
  // 0 − x, not −x: never a negative zero.
  return 0 - mulDivFloor(-a, b, c);
}

/**
 * a × b ÷ c rounded to the nearest integer, halves away from zero, exactly (BigInt inside): a cash
 * dividend per position (contract/dividends.ts dividendAmountMinor: shares × micros ÷ 10,000).
 * Same errors as mulDivFloor.
 */
export function mulDivRound(a: number, b: number, c: number): number {
  assertSafe(a, 'a');
  assertSafe(b, 'b');
  if (!Number.isSafeInteger(c) || c <= 0) throw new RangeError(`divisor must be a positive integer: ${c}`);
  const n = BigInt(a) * BigInt(b);
  const abs = n < 0n ? -n : n;
  const q = (abs * 2n + BigInt(c)) / (2n * BigInt(c));
  const out = Number(n < 0n ? -q : q);
  assertSafe(out, 'quotient');
  return out === 0 ? 0 : out;
}

/** Parses a decimal string or number like "1005.5" into minor units exactly; throws on more than 2 decimals. */
export function toMinor(value: string | number): Minor {
  const s = typeof value === 'number' ? String(value) : value.trim();
  const m = /^(-)?(\d+)(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) throw new RangeError(`not a money value with at most 2 decimals: ${s}`);
  const minor = Number(m[2]) * MINOR_PER_MAJOR + Number((m[3] ?? '').padEnd(2, '0'));
  assertSafe(minor, 'amount');
  return m[1] ? -minor : minor;
}

/** Why a typed amount is not a payable amount: each rule its own message (see parseAmountInput). */
export type AmountIssue = 'required' | 'format' | 'decimals' | 'notPositive';

/**
 * A typed amount → minor units, or the one rule it breaks, checked in this order so each input
 * gets the message that fits it:
 * - `required`: empty (after removing thousands separators and spaces);
 * - `format`: not a plain decimal number ("12a", "1.2.3");
 * - `notPositive`: zero or negative ("0", "-5", "−5", "0.00"), whatever its decimals;
 * - `decimals`: more than 2 decimals ("10000.555"; TWD and the other currencies here have 2).
 * Full-width digits are read as digits (NFKC); U+2212 (minus sign) as "-". Exact: no float.
 */
export function parseAmountInput(text: string | undefined): { minor: Minor } | { issue: AmountIssue } {
  const s = (text ?? '')
    .normalize('NFKC')
    .replace(/[,\s]/g, '')
    .replace(/\u2212/g, '-');
  if (!s) return { issue: 'required' };
  const m = /^([-+])?(\d*)(?:\.(\d*))?$/.exec(s);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return { issue: 'format' };
  const digits = `${m[2]}${m[3] ?? ''}`;
  if (m[1] === '-' || /^0*$/.test(digits)) return { issue: 'notPositive' };
  if ((m[3] ?? '').length > 2) return { issue: 'decimals' };
  try {
    return { minor: toMinor(`${m[2] || '0'}${m[3] ? `.${m[3]}` : ''}`) };
  } catch {
    return { issue: 'format' };
  }
}

/** Minor units → fixed 2-decimal string without grouping ("1005.50"). */
export function minorToDecimal(minor: Minor): string {
  const neg = minor < 0;
  const abs = Math.abs(minor);
  const s = `${Math.floor(abs / MINOR_PER_MAJOR)}.${String(abs % MINOR_PER_MAJOR).padStart(2, '0')}`;
  return neg ? `-${s}` : s;
}

/** Parts per million in one unit: a rate of 31.475 is 31_475_000 ppm. */
export const PPM = 1_000_000;

/**
 * Parses a decimal rate like "31.475" into integer parts per million exactly (31_475_000).
 * Throws RangeError on more than 6 decimals, a sign, or anything that is not a plain decimal.
 */
export function decimalToPpm(value: string): number {
  const m = /^(\d+)(?:\.(\d{1,6}))?$/.exec(value.trim());
  if (!m) throw new RangeError(`not a rate with at most 6 decimals: ${value}`);
  const ppm = Number(m[1]) * PPM + Number((m[2] ?? '').padEnd(6, '0'));
  assertSafe(ppm, 'rate');
  return ppm;
}

/**
 * Exact currency conversion through USD, rounded **down** to the minor unit (the platform never
 * pays out a fraction of a cent; the member keeps nothing it did not pay for).
 *
 * `ratePpm` is the number of millionths of the non-USD currency per 1 USD (contract/funds.ts
 * FxRate: the member pays `sellPpm` when buying USD and receives `buyPpm` when selling USD).
 * Every currency is kept in hundredths, so the minor-unit scales cancel:
 * - `toUsd`:   usdMinor   = ⌊ amountMinor × 1_000_000 / ratePpm ⌋ (amount in the other currency)
 * - `fromUsd`: otherMinor = ⌊ amountMinor × ratePpm / 1_000_000 ⌋ (amount in USD)
 * Computed with BigInt, so no intermediate product loses precision.
 * @throws RangeError when the amount is not a non-negative safe integer, the rate is not a positive
 *   safe integer, or the result exceeds Number.MAX_SAFE_INTEGER.
 */
export function convertMinorFloor(
  amountMinor: Minor,
  ratePpm: number,
  direction: 'toUsd' | 'fromUsd',
): Minor {
  const n = convertMinorFloorInRange(amountMinor, ratePpm, direction);
  if (n === null) throw new RangeError(`converted amount exceeds Number.MAX_SAFE_INTEGER`);
  return n;
}

/**
 * convertMinorFloor for an amount a user typed: the exact BigInt result is compared with
 * Number.MAX_SAFE_INTEGER before it becomes a number, and null is returned when it does not fit
 * (USD 10^15 minor into JPY at 130 per USD is 1.3 × 10^17), so the caller refuses the request
 * instead of failing.
 * @throws RangeError when the amount is not a non-negative safe integer or the rate is not a
 *   positive safe integer (the contract's schemas already guarantee both).
 */
export function convertMinorFloorInRange(
  amountMinor: Minor,
  ratePpm: number,
  direction: 'toUsd' | 'fromUsd',
): Minor | null {
  assertSafe(amountMinor, 'amount');
  if (amountMinor < 0) throw new RangeError(`amount must not be negative: ${amountMinor}`);
  if (!Number.isSafeInteger(ratePpm) || ratePpm <= 0)
    throw new RangeError(`rate must be a positive integer ppm: ${ratePpm}`);
  const a = BigInt(amountMinor);
  const r = BigInt(ratePpm);
  const out = direction === 'toUsd' ? (a * BigInt(PPM)) / r : (a * r) / BigInt(PPM);
  return out > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(out);
}

// ---- Text: the one place rates and amounts turn into text and back (exact, no float) ----

/** Basis points in one unit: 1 % = 100 bps, 100 % = 10_000 bps. */
export const BPS_PER_UNIT = 10_000;

/** `int` as "<sign><whole>.<frac>" of `scale` (10^digits), dropping trailing zeros beyond `keep` decimals. */
function scaledText(int: number, digits: number, keep: number): string {
  const abs = Math.abs(int);
  const scale = 10 ** digits;
  let frac = String(abs % scale).padStart(digits, '0');
  while (frac.length > keep && frac.endsWith('0')) frac = frac.slice(0, -1);
  return `${int < 0 ? '-' : ''}${Math.floor(abs / scale)}${frac ? `.${frac}` : ''}`;
}

/**
 * Basis points as a percentage, exactly: two decimals (12_530 → "125.30%", −305 → "-3.05%");
 * `trim` drops trailing zeros (2_000 → "20%", 1_250 → "12.5%"); `signed` puts "+" before a
 * positive figure. '--' for null, undefined or anything not a safe integer.
 */
export function formatBps(
  bps: number | null | undefined,
  opts: { signed?: boolean; trim?: boolean } = {},
): string {
  if (bps === null || bps === undefined || !Number.isSafeInteger(bps)) return '--';
  return `${opts.signed && bps > 0 ? '+' : ''}${scaledText(bps, 2, opts.trim ? 0 : 2)}%`;
}

/** Parts per million as a percentage, trailing zeros dropped: 1_500 → "0.15%", 1_425 → "0.1425%". */
export function formatPpmPercent(ppm: number): string {
  if (!Number.isSafeInteger(ppm)) return '--';
  return `${scaledText(ppm, 4, 0)}%`;
}

/**
 * Parts per million as the plain decimal a rate is typed as, with 2 to 6 decimals
 * (31_475_000 → "31.475", 214_500 → "0.2145", 30_000_000 → "30.00"). '--' when not a safe integer.
 */
export function ppmToDecimal(ppm: number): string {
  if (!Number.isSafeInteger(ppm)) return '--';
  return scaledText(ppm, 6, 2);
}

/**
 * A typed rate ("31.475") → parts per million (31_475_000), or null when it is empty, not a plain
 * decimal, has more than 6 decimals, is zero or negative, or exceeds `maxPpm`.
 */
export function parseRateToPpm(text: string, maxPpm = Number.MAX_SAFE_INTEGER): number | null {
  const m = /^(\d+)(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!m) return null;
  const ppm = BigInt(m[1]!) * BigInt(PPM) + BigInt((m[2] ?? '').padEnd(6, '0'));
  if (ppm <= 0n || ppm > BigInt(maxPpm)) return null;
  return Number(ppm);
}

/**
 * A typed percentage ("12.5") → basis points (1_250), or null when it is empty, not a plain
 * decimal, has more than 2 decimals, or exceeds `maxBps` (default 100 %). Zero is accepted.
 */
export function parsePercentToBps(text: string, maxBps = BPS_PER_UNIT): number | null {
  const m = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  const bps = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return bps <= maxBps ? bps : null;
}

/**
 * A typed amount ("1,000.5") → minor units (100_050), or null for anything `parseAmountInput`
 * refuses (empty, malformed, zero or negative, more than 2 decimals, unsafe).
 */
export function parseAmountToMinor(text: string | undefined): Minor | null {
  const r = parseAmountInput(text);
  return 'minor' in r ? r.minor : null;
}

/** Basis points as the plain percentage a rate is typed as, two decimals: 1_050 → "10.50". */
export function bpsToDecimal(bps: number): string {
  if (!Number.isSafeInteger(bps)) return '--';
  return scaledText(bps, 2, 2);
}
