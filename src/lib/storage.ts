/**
 * Browser local storage keys from product-spec §3 "Session": tokend, account, is_admin, lang.
 * The operator console keeps its own session under the same names with a prefix, so logging in
 * as an operator never overwrites a member's session in another tab.
 */
export const STORAGE_KEYS = {
  token: 'tokend',
  account: 'account',
  isAdmin: 'is_admin',
  lang: 'lang',
} as const;

/** Legacy keys the spec's root shell removes when it is destroyed. */
export const LEGACY_KEYS = ['tklm', 'zjkm', 'hklm'] as const;

export interface StoredSession {
  token: string | null;
  account: string | null;
  isAdmin: boolean;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // private mode / disabled storage
  }
}

export function readItem(key: string): string | null {
  return storage()?.getItem(key) ?? null;
}

export function writeItem(key: string, value: string | null): void {
  const s = storage();
  if (!s) return;
  try {
    if (value === null) s.removeItem(key);
    else s.setItem(key, value);
  } catch {
    // quota or disabled storage: the in-memory store still holds the session
  }
}

export function readSession(prefix = ''): StoredSession {
  const token = readItem(prefix + STORAGE_KEYS.token);
  return {
    token: token || null,
    account: readItem(prefix + STORAGE_KEYS.account) || null,
    isAdmin: readItem(prefix + STORAGE_KEYS.isAdmin) === 'true',
  };
}

export function writeSession(session: StoredSession, prefix = ''): void {
  writeItem(prefix + STORAGE_KEYS.token, session.token);
  writeItem(prefix + STORAGE_KEYS.account, session.account);
  writeItem(prefix + STORAGE_KEYS.isAdmin, session.token ? String(session.isAdmin) : null);
}

export function clearSession(prefix = ''): void {
  writeSession({ token: null, account: null, isAdmin: false }, prefix);
}

/** Where this browser keeps the device token of `account` (server/modules/auth/devices.ts). */
const deviceKey = (account: string) => `device:${account}`;

/**
 * The device token the server handed this browser at an earlier login of `account`, sent with the
 * next login so this device is known (it logs in while someone guessing elsewhere is throttled).
 * Kept across logouts; undefined when there is none.
 */
export function readDeviceToken(account: string): string | undefined {
  return readItem(deviceKey(account)) || undefined;
}

/** Keeps the device token answered by a successful login of `account` (see readDeviceToken). */
export function writeDeviceToken(account: string, token: string | undefined): void {
  if (token) writeItem(deviceKey(account), token);
}
