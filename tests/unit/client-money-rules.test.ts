/**
 * The member money screens' pure rules: amount fields parse to exact minor units and name what is
 * wrong, each rule its own key (empty, not a number, zero or negative, more than 2 decimals,
 * limits, balance); the loan form's amount the same, with the loan's own empty message; the exchange preview is exactly what the
 * server pays (BigInt, rounded down, the sell rate buying USD and the buy rate selling it); the
 * pair rules (one side USD, never the same currency); rates display without a float; the
 * identity forms check what the contract checks; configured withdrawal limits fall back safely.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CURRENCIES, type Currency } from '../../contract/constants';
import type { FxRate } from '../../contract/funds';
import { addBankCardReq, idNumberSchema } from '../../contract/identity';
import {
  applicableRate,
  exchangePreview,
  limitFromConfig,
  pairError,
  parseAmount,
} from '../../src/features/funds/amount';
import { ppmToDecimal } from '../../contract/money';
import {
  bankCodeError,
  branchCodeError,
  cardNumberError,
  fundsPasswordError,
  idNumberError,
  normaliseCardNumber,
  normaliseIdNumber,
  realNameError,
  upiError,
} from '../../src/features/identity/validation';
import { loanAmount } from '../../src/features/credit/components/parts';

const RATES: FxRate[] = [
  { currency: 'TWD', buyPpm: 31_840_000, sellPpm: 31_990_000, source: 'test', asOf: '2026-03-13' },
  { currency: 'JPY', buyPpm: 148_123_456, sellPpm: 150_000_001, source: 'test', asOf: '2026-03-13' },
];

describe('loanAmount', () => {
  it.each([
    ['', 'errors.loanAmountRequired'],
    ['10000.555', 'errors.amountTooManyDecimals'],
    ['0', 'errors.amountNotPositive'],
    ['-5', 'errors.amountNotPositive'],
    ['abc', 'money.amountInvalid'],
  ])('%j → %s', (text, key) => {
    expect(loanAmount(text)).toEqual({ errorKey: key });
  });
  it('parses a valid amount', () => {
    expect(loanAmount('10,000.55')).toEqual({ minor: 1_000_055 });
  });
});

describe('parseAmount', () => {
  it.each([
    ['', 'money.amountRequired'],
    ['   ', 'money.amountRequired'],
    ['abc', 'money.amountInvalid'],
    ['1.2.3', 'money.amountInvalid'],
    ['1e3', 'money.amountInvalid'],
    ['.', 'money.amountInvalid'],
    // Each rule its own message: zero or negative is never "at most 2 decimals", and too many
    // decimals is never "please enter an amount".
    ['1.234', 'errors.amountTooManyDecimals'],
    ['10000.555', 'errors.amountTooManyDecimals'],
    ['-5', 'errors.amountNotPositive'],
    ['−5', 'errors.amountNotPositive'],
    ['-5.555', 'errors.amountNotPositive'],
    ['0', 'errors.amountNotPositive'],
    ['0.00', 'errors.amountNotPositive'],
    ['0.000', 'errors.amountNotPositive'],
  ])('%j → %s', (text, key) => {
    expect(parseAmount(text)).toEqual({ error: key });
  });

  it('parses exactly into minor units, thousands separators allowed', () => {
    expect(parseAmount('1,000,000.05')).toEqual({ minor: 100_000_005 });
    expect(parseAmount('0.1')).toEqual({ minor: 10 });
    expect(parseAmount(' 12.3 ')).toEqual({ minor: 1_230 });
    expect(parseAmount('.5')).toEqual({ minor: 50 });
    expect(parseAmount('１２')).toEqual({ minor: 1_200 });
  });

  it('checks the limits, then the balance, with the given keys', () => {
    const limits = {
      minMinor: 100_000,
      maxMinor: 500_000,
      belowKey: 'errors.belowMinWithdraw',
      aboveKey: 'errors.aboveMaxWithdraw',
      availableMinor: 300_000,
    };
    expect(parseAmount('999.99', limits)).toEqual({ error: 'errors.belowMinWithdraw' });
    expect(parseAmount('1000', limits)).toEqual({ minor: 100_000 });
    expect(parseAmount('5000.01', limits)).toEqual({ error: 'errors.aboveMaxWithdraw' });
    expect(parseAmount('3000.01', limits)).toEqual({ error: 'errors.insufficientBalance' });
    expect(parseAmount('3000', limits)).toEqual({ minor: 300_000 });
  });
});

describe('currency pairs and rates', () => {
  it('refuses the same currency and pairs without USD', () => {
    for (const c of CURRENCIES) expect(pairError(c, c)).toBe('errors.sameCurrency');
    expect(pairError('TWD', 'JPY')).toBe('exchange.usdSide');
    expect(pairError('TWD', 'USD')).toBeNull();
    expect(pairError('USD', 'INR')).toBeNull();
  });

  it('buying USD uses the sell rate, selling USD the buy rate; none without a rate', () => {
    expect(applicableRate('TWD', 'USD', RATES)?.ratePpm).toBe(31_990_000);
    expect(applicableRate('USD', 'TWD', RATES)?.ratePpm).toBe(31_840_000);
    expect(applicableRate('USD', 'KRW', RATES)).toBeNull();
    expect(applicableRate('TWD', 'TWD', RATES)).toBeNull();
  });

  it('previews exactly, rounded down', () => {
    // NT$10,000 at 31.99 → 312.5977… USD → 312.59
    expect(exchangePreview('TWD', 'USD', 1_000_000, RATES)?.toMinor).toBe(31_259);
    // US$10 at 31.84 → NT$318.40
    expect(exchangePreview('USD', 'TWD', 1_000, RATES)?.toMinor).toBe(31_840);
    // US$0.01 at 148.123456 → ¥1.48123456 → 1.48
    expect(exchangePreview('USD', 'JPY', 1, RATES)?.toMinor).toBe(148);
    // ¥0.01 buys nothing.
    expect(exchangePreview('JPY', 'USD', 1, RATES)?.toMinor).toBe(0);
  });

  it('matches a BigInt reference for any amount and rate (never rounds up)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000_000 }),
        fc.integer({ min: 1, max: 50_000_000_000 }),
        fc.constantFrom<Currency>('TWD', 'JPY', 'INR'),
        fc.boolean(),
        (amount, ppm, other, toUsd) => {
          const rates: FxRate[] = [{ currency: other, buyPpm: ppm, sellPpm: ppm, source: 's', asOf: 'd' }];
          const [from, to]: [Currency, Currency] = toUsd ? [other, 'USD'] : ['USD', other];
          const want = toUsd
            ? (BigInt(amount) * 1_000_000n) / BigInt(ppm)
            : (BigInt(amount) * BigInt(ppm)) / 1_000_000n;
          // A result past 2^53 − 1 minor units is refused, never rounded (e.g. 90 billion TWD at
          // a rate of 0.000001 TWD per USD).
          if (want > BigInt(Number.MAX_SAFE_INTEGER))
            expect(() => exchangePreview(from, to, amount, rates)).toThrow(RangeError);
          else expect(BigInt(exchangePreview(from, to, amount, rates)!.toMinor)).toBe(want);
        },
      ),
    );
  });

  it('shows a rate in ppm as a decimal without a float', () => {
    expect(ppmToDecimal(31_475_000)).toBe('31.475');
    expect(ppmToDecimal(31_000_000)).toBe('31.00');
    expect(ppmToDecimal(31_100_000)).toBe('31.10');
    expect(ppmToDecimal(148_123_456)).toBe('148.123456');
    expect(ppmToDecimal(214_500)).toBe('0.2145');
    expect(ppmToDecimal(1)).toBe('0.000001');
  });
});

describe('identity forms', () => {
  it('ID numbers: required, check digit verified, lower case accepted as the server does', () => {
    expect(idNumberError('')).toBe('identity.idRequired');
    expect(idNumberError('A123456788')).toBe('identity.idInvalid');
    expect(idNumberError('A12345678')).toBe('identity.idInvalid');
    expect(idNumberError('a123456789')).toBeNull();
    expect(normaliseIdNumber(' a123456789 ')).toBe('A123456789');
    // Whatever passes here, the contract's schema accepts as well, and the other way round.
    for (const v of ['A123456789', 'a123456789', 'A123456788', 'Z999999999', 'AB12345678', 'A800000014']) {
      expect(idNumberError(v) === null).toBe(idNumberSchema.safeParse(v).success);
    }
  });

  it('names: 2–40 characters, no digits', () => {
    expect(realNameError('')).toBe('identity.nameRequired');
    expect(realNameError('王')).toBe('identity.nameInvalid');
    expect(realNameError('王小明2')).toBe('identity.nameInvalid');
    expect(realNameError('王小明')).toBeNull();
    expect(realNameError('Wang Xiao-ming')).toBeNull();
  });

  it('bank card fields: what passes here passes the contract', () => {
    const card = {
      holderName: '王小明',
      cardNumber: normaliseCardNumber('1234 5678-9012 3456'),
      bankCode: '004',
      bankName: '臺灣銀行',
      branchName: '館前分行',
      branchCode: '0037',
    };
    expect(card.cardNumber).toBe('1234567890123456');
    expect(cardNumberError(card.cardNumber)).toBeNull();
    expect(bankCodeError(card.bankCode)).toBeNull();
    expect(branchCodeError(card.branchCode)).toBeNull();
    expect(addBankCardReq.safeParse(card).success).toBe(true);
    // An unlisted but well-formed bank code passes both.
    expect(bankCodeError('999')).toBeNull();
    expect(addBankCardReq.safeParse({ ...card, bankCode: '999' }).success).toBe(true);
    expect(cardNumberError('123456789')).toBe('card.numberInvalid');
    expect(cardNumberError('12345678901234567890')).toBe('card.numberInvalid');
    for (const bad of ['04', '0040', 'ab4', '０04']) {
      expect(bankCodeError(bad)).toBe('card.bankCodeInvalid');
      expect(addBankCardReq.safeParse({ ...card, bankCode: bad }).success).toBe(false);
    }
    for (const bad of ['12', '037', '0040037', '00a7']) {
      expect(branchCodeError(bad)).toBe('card.branchCodeInvalid');
      expect(addBankCardReq.safeParse({ ...card, branchCode: bad }).success).toBe(false);
    }
    expect(bankCodeError('')).toBe('card.required');
    expect(branchCodeError(' ')).toBe('card.required');

    // An account outside Taiwan: UPI / IFSC instead of the codes.
    const abroad = {
      holderName: '王小明',
      cardNumber: '1234567890123456',
      outsideTaiwan: true,
      bankName: 'State Bank of India',
      branchName: 'Mumbai',
      upi: 'SBIN0001234',
    };
    expect(upiError(abroad.upi)).toBeNull();
    expect(addBankCardReq.safeParse(abroad).success).toBe(true);
    expect(addBankCardReq.safeParse({ ...abroad, upi: undefined }).success).toBe(false);
    expect(addBankCardReq.safeParse({ ...abroad, bankCode: '004' }).success).toBe(false);
    expect(addBankCardReq.safeParse({ ...card, upi: 'SBIN0001234' }).success).toBe(false);
    expect(upiError('a b')).toBe('card.upiInvalid');
    expect(upiError('')).toBe('card.required');
  });

  it('funds password: six digits, not one repeated digit or a run', () => {
    expect(fundsPasswordError('')).toBe('password.fundsRequired');
    expect(fundsPasswordError('12345')).toBe('password.fundsRule');
    expect(fundsPasswordError('12345a')).toBe('password.fundsRule');
    expect(fundsPasswordError('123456')).toBe('password.fundsTrivial');
    expect(fundsPasswordError('999999')).toBe('password.fundsTrivial');
    expect(fundsPasswordError('135790')).toBeNull();
  });
});

describe('withdrawal limits from the site configuration', () => {
  it('uses a configured integer, else the default', () => {
    expect(limitFromConfig('250000', 1)).toBe(250_000);
    expect(limitFromConfig(undefined, 100_000)).toBe(100_000);
    expect(limitFromConfig('', 100_000)).toBe(100_000);
    expect(limitFromConfig('12.5', 100_000)).toBe(100_000);
    expect(limitFromConfig('-1', 100_000)).toBe(100_000);
    expect(limitFromConfig('99999999999999999999', 100_000)).toBe(100_000);
  });
});
