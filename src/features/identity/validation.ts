/**
 * Client-side checks of the identity forms (product-spec §5 "Real-name", "Bank card"), with the
 * same rules the server validates with (contract/identity.ts, contract/identity-rules.ts,
 * contract/constants.ts). Each returns a translation key, or null when the value is fine.
 */
import { BANK_CODE_RE, BRANCH_CODE_RE, UPI_RE } from '../../../contract/banks';
import { PASSWORD_RE } from '../../../contract/constants';
import { isValidTaiwanId } from '../../../contract/identity-rules';
import { sixDigitError } from '../../lib/password-checks';

/** Same shape as contract/identity.ts realNameSchema: 2–40 characters, no digits or angle brackets. */
export function realNameError(v: string | undefined): string | null {
  const s = (v ?? '').trim();
  if (!s) return 'identity.nameRequired';
  if (s.length < 2 || s.length > 40 || !/^[^\d<>]+$/u.test(s)) return 'identity.nameInvalid';
  return null;
}

/** The ID number as sent: trimmed, upper case. */
export function normaliseIdNumber(v: string | undefined): string {
  return (v ?? '').trim().toUpperCase();
}

/** Taiwan national ID or resident certificate number with its check digit. */
export function idNumberError(v: string | undefined): string | null {
  const s = normaliseIdNumber(v);
  if (!s) return 'identity.idRequired';
  if (!isValidTaiwanId(s)) return 'identity.idInvalid';
  return null;
}

/** Card or account number as sent: digits only (spaces and dashes the member typed removed). */
export function normaliseCardNumber(v: string | undefined): string {
  return (v ?? '').replace(/[\s-]/g, '');
}

export function cardNumberError(v: string | undefined): string | null {
  const s = normaliseCardNumber(v);
  if (!s) return 'card.required';
  if (!/^\d{10,19}$/.test(s)) return 'card.numberInvalid';
  return null;
}

export function requiredError(v: string | undefined): string | null {
  return (v ?? '').trim() ? null : 'card.required';
}

/** Taiwan bank code (金融機構代號): three digits (contract/banks.ts; unlisted codes allowed). */
export function bankCodeError(v: string | undefined): string | null {
  const s = (v ?? '').trim();
  if (!s) return 'card.required';
  if (!BANK_CODE_RE.test(s)) return 'card.bankCodeInvalid';
  return null;
}

/** Taiwan branch code (分行代號): four digits. */
export function branchCodeError(v: string | undefined): string | null {
  const s = (v ?? '').trim();
  if (!s) return 'card.required';
  if (!BRANCH_CODE_RE.test(s)) return 'card.branchCodeInvalid';
  return null;
}

/** UPI / IFSC of an account outside Taiwan. */
export function upiError(v: string | undefined): string | null {
  const s = (v ?? '').trim();
  if (!s) return 'card.required';
  if (!UPI_RE.test(s)) return 'card.upiInvalid';
  return null;
}

/** Login password: 8–32 English letters or digits. */
export function loginPasswordError(v: string | undefined): string | null {
  if (!v) return 'validation.passwordRequired';
  if (!PASSWORD_RE.test(v)) return 'validation.passwordRule';
  return null;
}

/** A new login password: the login-password rule, and not the current one (contract/identity.ts loginPasswordReq). */
export function newLoginPasswordError(old: string | undefined, v: string | undefined): string | null {
  const rule = loginPasswordError(v);
  if (rule) return rule;
  return old && v === old ? 'validation.passwordUnchanged' : null;
}

/** Funds password: six digits, not trivial. */
export const fundsPasswordError = sixDigitError(
  'password.fundsRequired',
  'password.fundsRule',
  'password.fundsTrivial',
);
