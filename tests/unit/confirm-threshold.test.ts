// @vitest-environment jsdom
/**
 * The confirmation threshold's pure rules:
 * - contract/account.ts confirmNeeded: at or above the threshold asks, below does not, 0 asks
 *   always, an action that cannot be valued asks, a bad threshold throws;
 * - what each action is worth: an order its preview's total required (features/trading
 *   order-confirm.ts), a pending order's cancel its frozen funds (features/position order-rows),
 *   an exchange its TWD side or its USD side at the TWD buying rate (features/funds amount.ts);
 * - the settings field's amount (NT$, ≤ 2 decimals, 0 … the maximum).
 */
import fc from 'fast-check';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import {
  CONFIRM_ABOVE_DEFAULT_MINOR,
  CONFIRM_ABOVE_MAX_MINOR,
  confirmNeeded,
  preferencesSchema,
  savePreferencesReq,
} from '../../contract/account';
import type { FxRate } from '../../contract/funds';
import { orderPreview } from '../../contract/market-rules';
import { convertMinorFloor } from '../../contract/money';
import type { Order } from '../../contract/trading';
import { parseThreshold } from '../../src/features/account/components/confirm-above-setting';
import { exchangePreview, exchangeTwdMinor } from '../../src/features/funds/amount';
import { cancelConfirmRequest } from '../../src/features/position/components/order-rows';
import { orderConfirmRequest } from '../../src/features/trading/components/order-confirm';

const RATES: FxRate[] = [
  { currency: 'TWD', buyPpm: 31_840_000, sellPpm: 31_990_000, source: 'test', asOf: '2026-03-13' },
  { currency: 'JPY', buyPpm: 148_123_456, sellPpm: 150_000_001, source: 'test', asOf: '2026-03-13' },
];
/** Keys as text: the rules, not the wording, are under test here. */
const t = ((key: string) => key) as unknown as TFunction;

describe('confirmNeeded', () => {
  it.each([
    [10_000_000, 10_000_000, true],
    [10_000_001, 10_000_000, true],
    [9_999_999, 10_000_000, false],
    [0, 10_000_000, false],
    [0, 0, true],
    [1, 0, true],
    [null, 10_000_000, true],
    [null, 0, true],
    [Number.MAX_SAFE_INTEGER, CONFIRM_ABOVE_MAX_MINOR, true],
  ])('%s against %s → %s', (amount, threshold, expected) => {
    expect(confirmNeeded(amount, threshold)).toBe(expected);
  });

  it('asks exactly when the amount reaches the threshold', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: CONFIRM_ABOVE_MAX_MINOR * 2 }),
        fc.integer({ min: 0, max: CONFIRM_ABOVE_MAX_MINOR }),
        (amount, threshold) => {
          expect(confirmNeeded(amount, threshold)).toBe(amount >= threshold);
          // 0 asks always; raising the threshold never makes an action ask that did not.
          expect(confirmNeeded(amount, 0)).toBe(true);
          if (!confirmNeeded(amount, threshold)) expect(confirmNeeded(amount, threshold + 1)).toBe(false);
        },
      ),
    );
  });

  it('throws on a threshold that is not a non-negative safe integer', () => {
    for (const bad of [-1, 0.5, Number.NaN, 2 ** 53]) expect(() => confirmNeeded(1, bad)).toThrow(RangeError);
  });

  it('the default is NT$100,000 and lies within what the schema accepts', () => {
    expect(CONFIRM_ABOVE_DEFAULT_MINOR).toBe(10_000_000);
    expect(preferencesSchema.safeParse({ confirmAboveMinor: CONFIRM_ABOVE_DEFAULT_MINOR }).success).toBe(
      true,
    );
    expect(savePreferencesReq.safeParse({ confirmAboveMinor: 0 }).success).toBe(true);
    expect(savePreferencesReq.safeParse({ confirmAboveMinor: CONFIRM_ABOVE_MAX_MINOR }).success).toBe(true);
    for (const bad of [
      { confirmAboveMinor: -1 },
      { confirmAboveMinor: CONFIRM_ABOVE_MAX_MINOR + 1 },
      { confirmAboveMinor: 0.5 },
      { confirmAboveMinor: 1, userId: 2 },
    ])
      expect(savePreferencesReq.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
});

describe('what an action is worth', () => {
  it("an order: its preview's total required (margin + fees + tax)", () => {
    for (const [side, leverage] of [
      ['long', 1],
      ['short', 10],
    ] as const) {
      const preview = orderPreview({ priceMinor: 100_000, lots: 2, leverage, side, kind: 'stock' });
      const r = orderConfirmRequest(t, {
        symbol: '2330',
        name: 'TSMC',
        side,
        orderType: 'limit',
        afterHours: false,
        priceMinor: 100_000,
        lots: 2,
        leverage,
        preview,
        submitLabel: 'go',
      });
      expect(r.amountMinor).toBe(preview.totalRequiredMinor);
      expect(r.amountMinor).toBe(
        preview.marginMinor + preview.commissionMinor + preview.clearingFeeMinor + preview.openTaxMinor,
      );
      const rows = Object.fromEntries(r.rows.map((x) => [x.testId, x.value]));
      expect(rows).toMatchObject({ symbol: '2330 TSMC', lots: '2', leverage: `${leverage}×` });
      expect(rows.notional).toBe('2,000,000.00');
      expect(r.confirmText).toBe('go');
    }
  });

  it('a cancel: the pending order’s frozen funds', () => {
    const order = {
      id: 1,
      symbol: '2330',
      name: 'TSMC',
      side: 'long',
      orderType: 'limit',
      limitPriceMinor: 95_000,
      lots: 3,
      leverage: 5,
      frozenMinor: 5_741_234,
    } as unknown as Order;
    const r = cancelConfirmRequest(t, order);
    expect(r.amountMinor).toBe(5_741_234);
    expect(r.rows.find((x) => x.testId === 'frozen')!.value).toBe('57,412.34');
  });

  it('an exchange: its TWD side, or its USD side at the TWD buying rate', () => {
    const twd = RATES[0]!;
    // TWD → USD: the TWD paid.
    const toUsd = exchangePreview('TWD', 'USD', 12_345_678, RATES)!;
    expect(exchangeTwdMinor('TWD', 'USD', 12_345_678, toUsd.toMinor, RATES)).toBe(12_345_678);
    // USD → TWD: the TWD received (the preview: USD at the buying rate).
    const fromUsd = exchangePreview('USD', 'TWD', 400_000, RATES)!;
    expect(exchangeTwdMinor('USD', 'TWD', 400_000, fromUsd.toMinor, RATES)).toBe(fromUsd.toMinor);
    expect(fromUsd.toMinor).toBe(convertMinorFloor(400_000, twd.buyPpm, 'fromUsd'));
    // USD → JPY: the USD paid, valued in TWD.
    const jpy = exchangePreview('USD', 'JPY', 400_000, RATES)!;
    expect(exchangeTwdMinor('USD', 'JPY', 400_000, jpy.toMinor, RATES)).toBe(12_736_000);
    // JPY → USD: the USD received, valued in TWD.
    const jpyToUsd = exchangePreview('JPY', 'USD', 100_000_000, RATES)!;
    expect(exchangeTwdMinor('JPY', 'USD', 100_000_000, jpyToUsd.toMinor, RATES)).toBe(
      convertMinorFloor(jpyToUsd.toMinor, twd.buyPpm, 'fromUsd'),
    );
    // Without a TWD rate only the TWD pairs can be valued.
    const noTwd = RATES.slice(1);
    expect(exchangeTwdMinor('USD', 'JPY', 400_000, jpy.toMinor, noTwd)).toBeNull();
    expect(exchangeTwdMinor('TWD', 'USD', 5, 0, undefined)).toBe(5);
    // Beyond 2^53 in TWD: cannot be valued (and so asks).
    expect(exchangeTwdMinor('USD', 'JPY', Number.MAX_SAFE_INTEGER, 0, RATES)).toBeNull();
    expect(confirmNeeded(exchangeTwdMinor('USD', 'JPY', 400_000, jpy.toMinor, noTwd), 10_000_000)).toBe(true);
  });
});

describe('the settings field', () => {
  it.each([
    ['100000', 10_000_000],
    ['100,000', 10_000_000],
    [' 0 ', 0],
    ['0.01', 1],
    ['1000000000', CONFIRM_ABOVE_MAX_MINOR],
    ['1000000000.01', null],
    ['-1', null],
    ['1.234', null],
    ['abc', null],
    ['', null],
  ])('%j → %s', (text, expected) => {
    expect(parseThreshold(text)).toBe(expected);
  });
});
