/**
 * Client-side checks mirroring contract/auth.ts (product-spec §5 "Login", "Register"). They
 * return translation keys; the server validates again with the contract's schemas.
 */
/** Ten-digit mobile number (the contract's accountSchema). */
export const MOBILE_RE = /^\d{10}$/;
/** Eight to 32 English letters or digits (the contract's passwordSchema). */
export const PASSWORD_RE = /^[A-Za-z0-9]{8,32}$/;
/** Login accounts: lowercase letters, digits and _ . - (the contract's loginReq). */
export const LOGIN_ACCOUNT_RE = /^[a-z0-9_.-]{1,32}$/;
const CAPITALS_RE = /[A-Z]/;

export function loginAccountError(v: string | undefined): string | null {
  const s = (v ?? '').trim();
  if (!s) return 'validation.accountRequired';
  if (CAPITALS_RE.test(s)) return 'validation.noCapitals';
  if (!LOGIN_ACCOUNT_RE.test(s)) return 'validation.accountInvalid';
  return null;
}

export function registerAccountError(v: string | undefined): string | null {
  const s = (v ?? '').trim();
  if (!s) return 'validation.accountRequired';
  if (CAPITALS_RE.test(s)) return 'validation.noCapitals';
  if (!MOBILE_RE.test(s)) return 'validation.mobile';
  return null;
}

export function passwordError(v: string | undefined, strict: boolean): string | null {
  const s = v ?? '';
  if (!s) return 'validation.passwordRequired';
  if (strict && !PASSWORD_RE.test(s)) return 'validation.passwordRule';
  return null;
}

export function confirmError(password: string | undefined, confirm: string | undefined): string | null {
  if (!confirm) return 'validation.confirmRequired';
  if (password !== confirm) return 'validation.passwordsDiffer';
  return null;
}

export function inviteError(v: string | undefined): string | null {
  return (v ?? '').trim() ? null : 'validation.inviteRequired';
}
