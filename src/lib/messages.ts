/**
 * Server message keys → translation keys. The server answers with a key from contract/errors.ts
 * (or a success key); anything unknown falls back to `errors.generic` (product-spec §8).
 */
import { ERROR_KEYS, SUCCESS_KEYS, type SuccessKey } from '../../contract/errors';

const errorKeys: ReadonlySet<string> = new Set(ERROR_KEYS);
const successKeys: ReadonlySet<string> = new Set(SUCCESS_KEYS);

/** Client-side error keys (network conditions the server never names). */
export const CLIENT_ERROR_KEYS = ['network', 'timeout'] as const;
const clientErrorKeys: ReadonlySet<string> = new Set(CLIENT_ERROR_KEYS);

/** Translation key for a server `msg`. */
export function errorMessageKey(msg: string | null | undefined): string {
  if (msg && (errorKeys.has(msg) || clientErrorKeys.has(msg))) return `errors.${msg}`;
  return 'errors.generic';
}

export function isSuccessKey(msg: string | null | undefined): msg is SuccessKey {
  return !!msg && successKeys.has(msg);
}
