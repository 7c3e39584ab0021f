/**
 * Client-side checks shared by the password forms, with the server's rules (contract/constants.ts
 * FUNDS_PASSWORD_RE for six-digit passwords). Each returns a translation key, or null when fine.
 */
import { FUNDS_PASSWORD_RE } from '../../contract/constants';

/** A six-digit password (funds, block trade): empty → `required`, not six digits → `rule`. */
export function sixDigitError(required: string, rule: string) {
  return (v: string | undefined): string | null => {
    if (!v) return required;
    return FUNDS_PASSWORD_RE.test(v) ? null : rule;
  };
}

/** The confirmation of a new password: empty, or not the same. */
export function confirmError(password: string | undefined, confirm: string | undefined): string | null {
  if (!confirm) return 'validation.confirmRequired';
  if (password !== confirm) return 'validation.passwordsDiffer';
  return null;
}
