/**
 * The day-trade tax (TW-MARKET-RULES "Securities transaction tax": same-day day trades 0.15 % ⚠
 * until 2027-12-31, stocks 0.3 %, ETFs 0.1 %) as day trading applies it: a long's closing sale
 * through closeResult's `dayTradeOn`, a short's opening sale recomputed at the day-trade rate
 * (shortDayTradeOpenTaxMinor) — equal to what openCosts charges for a day-trade sale, so the
 * refund at the offset is exactly the difference. Amounts in minor units, tax truncated to NT$.
 */
import { describe, expect, it } from 'vitest';
import { closeResult, DEFAULT_FEES, openCosts, SHARES_PER_LOT } from '../../contract/market-rules';
import { shortDayTradeOpenTaxMinor } from '../../server/modules/day-trading/tax';

describe('day-trade tax of a long (closing sale)', () => {
  const base = {
    openValueMinor: 60_000 * 2 * SHARES_PER_LOT,
    shares: 2 * SHARES_PER_LOT,
    side: 'long' as const,
    kind: 'stock' as const,
  };
  it.each([
    // 603 NT$ × 2,000 = 1,206,000 NT$; 0.15 % = 1,809 NT$; 0.3 % = 3,618 NT$.
    ['the last day of the reduced rate', '2027-12-31', 180_900],
    ['a day later: the stock rate', '2028-01-01', 361_800],
    ['not a day trade', undefined, 361_800],
  ])('%s', (_l, dayTradeOn, tax) => {
    expect(closeResult({ ...base, closePriceMinor: 60_300, dayTradeOn }).taxMinor).toBe(tax);
  });

  it('truncates to whole NT$: 123.45 × 1,000 = 123,450 NT$ × 0.15 % = 185.175 → 185 NT$', () => {
    const r = closeResult({
      ...base,
      shares: 1_000,
      openValueMinor: 60_000 * 1_000,
      closePriceMinor: 12_345,
      dayTradeOn: '2026-03-02',
    });
    expect(r.taxMinor).toBe(18_500);
  });

  it('an ETF day trade keeps the ETF rate (0.1 %)', () => {
    const r = closeResult({ ...base, kind: 'etf', closePriceMinor: 15_000, dayTradeOn: '2026-03-02' });
    expect(r.taxMinor).toBe(30_000); // 150 × 2,000 = 300,000 NT$ × 0.1 % = 300 NT$
  });
});

describe('day-trade tax of a short (opening sale)', () => {
  it.each([
    [60_000, 3, 'stock', '2026-03-02'],
    [12_345, 1, 'stock', '2026-03-02'],
    [99_900, 7, 'stock', '2027-12-31'],
    [15_005, 2, 'etf', '2026-03-02'],
  ] as const)('%i × %i lots (%s, %s) equals openCosts at the day-trade rate', (price, lots, kind, date) => {
    const shares = lots * SHARES_PER_LOT;
    const dayTrade = shortDayTradeOpenTaxMinor({ openValueMinor: price * shares }, kind, DEFAULT_FEES, date);
    const charged = openCosts({
      priceMinor: price,
      lots,
      leverage: 1,
      side: 'short',
      kind,
      fees: DEFAULT_FEES,
    });
    const atRate = openCosts({
      priceMinor: price,
      lots,
      leverage: 1,
      side: 'short',
      kind,
      fees: DEFAULT_FEES,
      dayTradeOn: date,
    });
    expect(dayTrade).toBe(atRate.taxMinor);
    expect(dayTrade).toBeLessThanOrEqual(charged.taxMinor);
  });

  it('half the stock rate: 600 NT$ × 1,000 → 1,800 NT$ charged, 900 NT$ as a day trade', () => {
    expect(
      shortDayTradeOpenTaxMinor({ openValueMinor: 60_000 * 1_000 }, 'stock', DEFAULT_FEES, '2026-03-02'),
    ).toBe(90_000);
    expect(
      shortDayTradeOpenTaxMinor({ openValueMinor: 60_000 * 1_000 }, 'stock', DEFAULT_FEES, '2028-01-03'),
    ).toBe(180_000);
  });
});
