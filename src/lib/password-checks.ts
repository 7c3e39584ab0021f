/**
 * Client-side checks shared by the password forms, with the server's rules (contract/constants.ts
 * FUNDS_PASSWORD_RE for six-digit passwords). Each returns a translation key, or null when fine.
 */
import { FUNDS_PASSWORD_RE } from '../../contract/constants';
import { isTrivialDigitPassword } from '../../contract/identity-rules';

/**
 * A six-digit password (funds, block trade): empty → `required`, not six digits → `rule`; with
 * `trivial`, one repeated digit or a run (contract/identity-rules.ts isTrivialDigitPassword) → it.
 */
export function sixDigitError(required: string, rule: string, trivial?: string) {
  return (v: string | undefined): string | null => {
    if (!v) return required;
    if (!FUNDS_PASSWORD_RE.test(v)) return rule;
    return trivial && isTrivialDigitPassword(v) ? trivial : null;
  };
}

/** The confirmation of a new password: empty, or not the same. */
export function confirmError(password: string | undefined, confirm: string | undefined): string | null {
  if (!confirm) return 'validation.confirmRequired';
  if (password !== confirm) return 'validation.passwordsDiffer';
  return null;
}
