// @vitest-environment jsdom
/**
 * The device token a login hands the browser (src/lib/storage.ts): kept per account, across a
 * logout, and sent with that account's next login (server/modules/auth/devices.ts).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { clearSession, readDeviceToken, writeDeviceToken, writeSession } from '../../src/lib/storage';

describe('device tokens in the browser', () => {
  beforeEach(() => localStorage.clear());

  it('are kept per account and survive a logout', () => {
    expect(readDeviceToken('0912345678')).toBeUndefined();
    writeSession({ token: 't', account: '0912345678', isAdmin: false });
    writeDeviceToken('0912345678', 'dev-a');
    writeDeviceToken('op-k3v9x2ab', 'dev-op');
    writeDeviceToken('0912345678', undefined); // a login answered without one keeps the old
    clearSession();
    expect(readDeviceToken('0912345678')).toBe('dev-a');
    expect(readDeviceToken('op-k3v9x2ab')).toBe('dev-op');
    expect(readDeviceToken('0900000000')).toBeUndefined();
  });
});
