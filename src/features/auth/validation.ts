/**
 * Client-side form checks (product-spec §5 "Login", "Register") with the contract's own patterns
 * from contract/constants.ts, which contract/auth.ts validates with on the server. They return
 * translation keys.
 */
import { LOGIN_ACCOUNT_RE, PASSWORD_RE, TW_MOBILE_RE } from '../../../contract/constants';

const CAPITALS_RE = /[A-Z]/;

export function loginAccountError(v: string | undefined): string | null {
  const s = (v ?? '').trim();
  if (!s) return 'validation.accountRequired';
  if (CAPITALS_RE.test(s)) return 'validation.noCapitals';
  if (!LOGIN_ACCOUNT_RE.test(s)) return 'validation.accountInvalid';
  return null;
}

/** The registration field is the mobile number: empty and malformed say so (contract/auth.ts registerAccountSchema). */
export function registerAccountError(v: string | undefined): string | null {
  const s = (v ?? '').trim();
  if (!s) return 'validation.mobileRequired';
  if (!TW_MOBILE_RE.test(s)) return 'validation.mobile';
  return null;
}

export function passwordError(v: string | undefined, strict: boolean): string | null {
  const s = v ?? '';
  if (!s) return 'validation.passwordRequired';
  if (strict && !PASSWORD_RE.test(s)) return 'validation.passwordRule';
  return null;
}

/** A new login password (the strict rule): registration and the password reset. */
export const strictPasswordError = (v: string | undefined): string | null => passwordError(v, true);

export function inviteError(v: string | undefined): string | null {
  return (v ?? '').trim() ? null : 'validation.inviteRequired';
}
