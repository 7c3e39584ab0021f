/**
 * Day-trading eligibility at its edges (TW-MARKET-RULES "Day trading": account ≥ 3 months, read
 * as DAY_TRADE_MIN_ACCOUNT_DAYS = 90 days ⚠, and ≥ 10 trades in the last year,
 * DAY_TRADE_MIN_TRADES = 10), the account-age arithmetic and the settings parser.
 */
import { describe, expect, it } from 'vitest';
import { DAY_TRADE_DEFAULTS, loadDayTradeConfig } from '../../server/modules/day-trading/config';
import { accountAgeDays, DAY_MS, evaluateEligibility } from '../../server/modules/day-trading/eligibility';

const rule = { minAccountDays: 90, minTrades: 10 };

describe('evaluateEligibility (defaults: 90 days, 10 trades)', () => {
  it.each([
    ['both exactly at the threshold', 90, 10, true],
    ['one day short', 89, 10, false],
    ['one trade short', 90, 9, false],
    ['both short', 89, 9, false],
    ['well above both', 400, 250, true],
    ['new account, many trades', 0, 50, false],
    ['old account, no trades', 3650, 0, false],
  ])('%s: %i days, %i trades → %s', (_label, accountDays, tradesLastYear, eligible) => {
    const e = evaluateEligibility({ accountDays, tradesLastYear, ...rule });
    expect(e.eligible).toBe(eligible);
    expect(e).toMatchObject({ accountDays, tradesLastYear, minAccountDays: 90, minTrades: 10 });
  });

  it('thresholds of 0 admit everyone', () => {
    expect(
      evaluateEligibility({ accountDays: 0, tradesLastYear: 0, minAccountDays: 0, minTrades: 0 }).eligible,
    ).toBe(true);
  });
});

describe('accountAgeDays', () => {
  const created = Date.UTC(2026, 0, 1, 3, 0, 0);
  it.each([
    ['same instant', 0, 0],
    ['one ms before a full day', DAY_MS - 1, 0],
    ['exactly one day', DAY_MS, 1],
    ['one ms before day 90', 90 * DAY_MS - 1, 89],
    ['exactly 90 days', 90 * DAY_MS, 90],
    ['a clock behind the registration', -5 * DAY_MS, 0],
  ])('%s → %i', (_label, elapsed, days) => {
    expect(accountAgeDays(created, created + elapsed)).toBe(days);
  });
});

describe('loadDayTradeConfig', () => {
  it('defaults to 90 days, 10 trades, auto close on', () => {
    expect(loadDayTradeConfig({})).toEqual(DAY_TRADE_DEFAULTS);
    expect(DAY_TRADE_DEFAULTS).toEqual({
      dayTradeMinAccountDays: 90,
      dayTradeMinTrades: 10,
      dayTradeAutoClose: true,
    });
  });

  it('reads the variables, 0 included', () => {
    expect(
      loadDayTradeConfig({
        DAY_TRADE_MIN_ACCOUNT_DAYS: '0',
        DAY_TRADE_MIN_TRADES: '3',
        DAY_TRADE_AUTO_CLOSE: 'off',
      }),
    ).toEqual({ dayTradeMinAccountDays: 0, dayTradeMinTrades: 3, dayTradeAutoClose: false });
    expect(loadDayTradeConfig({ DAY_TRADE_AUTO_CLOSE: 'TRUE' }).dayTradeAutoClose).toBe(true);
  });

  it.each([
    ['DAY_TRADE_MIN_ACCOUNT_DAYS', '-1'],
    ['DAY_TRADE_MIN_ACCOUNT_DAYS', '1.5'],
    ['DAY_TRADE_MIN_TRADES', 'ten'],
    ['DAY_TRADE_AUTO_CLOSE', 'maybe'],
  ])('refuses %s=%s naming the variable', (name, value) => {
    expect(() => loadDayTradeConfig({ [name]: value })).toThrow(name);
  });
});
