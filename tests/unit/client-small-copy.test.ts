/**
 * Small display rules of the trading screens: points codes are shown grouped by four with dashes,
 * typed or pasted with or without them (the server normalises again); a deposit channel's bank
 * name gives its FISC bank code.
 */
import { describe, expect, it } from 'vitest';
import { bankByName } from '../../contract/banks';
import { formatCode, groupCodeInput, normaliseCode, POINTS_CODE_LENGTH } from '../../contract/rewards';

describe('groupCodeInput', () => {
  it.each([
    ['abcd2345wxyz6789', 'ABCD-2345-WXYZ-6789'],
    ['ABCD-2345-WXYZ-6789', 'ABCD-2345-WXYZ-6789'],
    ['abcd 2345 wxyz 6789', 'ABCD-2345-WXYZ-6789'],
    ['ＡＢＣＤ２３４５', 'ABCD-2345'],
    ['abc', 'ABC'],
    ['abcde', 'ABCD-E'],
    ['', ''],
    ['ABCD-2345-WXYZ-6789-EXTRA', 'ABCD-2345-WXYZ-6789'],
  ])('%j → %j', (typed, shown) => {
    expect(groupCodeInput(typed)).toBe(shown);
  });

  it('is idempotent and what it shows normalises to the code', () => {
    const code = 'K3J9M2P8Q7R6S5T4';
    expect(code).toHaveLength(POINTS_CODE_LENGTH);
    const shown = groupCodeInput(code);
    expect(shown).toBe(formatCode(code));
    expect(groupCodeInput(shown)).toBe(shown);
    expect(normaliseCode(shown)).toBe(code);
  });
});

describe('bankByName', () => {
  it.each([
    ['臺灣銀行', '004'],
    ['台灣銀行', '004'],
    ['第一銀行', '007'],
    ['第一商業銀行股份有限公司', '007'],
    ['Bank of Taiwan', '004'],
    ['cathay united bank', '013'],
    ['822 中國信託', '822'],
    ['(808) 玉山', '808'],
    ['滙豐（台灣）商業銀行', '081'],
  ])('%j → %s', (name, code) => {
    expect(bankByName(name)?.code).toBe(code);
  });
  it('is undefined for a bank not listed or no name', () => {
    expect(bankByName('Some Bank')).toBeUndefined();
    expect(bankByName('')).toBeUndefined();
    expect(bankByName('12345678 帳戶')).toBeUndefined();
  });
});
