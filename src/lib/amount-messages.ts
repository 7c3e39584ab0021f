/**
 * The message of each rule a typed amount can break (contract/money.ts parseAmountInput), as
 * translation keys: one key per rule, so "0" is never told "at most 2 decimals" and "10000.555"
 * never "please enter an amount". Zero/negative and decimals are the server's own keys
 * (contract/errors.ts), so a form and the API say the same.
 */
import type { AmountIssue } from '../../contract/money';

export const AMOUNT_ISSUE_KEYS: Readonly<Record<AmountIssue, string>> = {
  required: 'money.amountRequired',
  format: 'money.amountInvalid',
  decimals: 'errors.amountTooManyDecimals',
  notPositive: 'errors.amountNotPositive',
};
