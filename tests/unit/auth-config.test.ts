/**
 * Login and registration throttling settings (server/modules/auth/config.ts): the documented
 * defaults, seconds in the environment read as milliseconds, and a bad value refused by name.
 */
import { describe, expect, it } from 'vitest';
import { AUTH_DEFAULTS, loadAuthConfig } from '../../server/modules/auth/config';

describe('loadAuthConfig', () => {
  it('has the documented defaults', () => {
    expect(loadAuthConfig({})).toEqual(AUTH_DEFAULTS);
    expect(AUTH_DEFAULTS).toMatchObject({
      loginFreeFailures: 3,
      loginDelayMs: 1_000,
      loginMaxFailures: 10,
      loginLockMs: 900_000,
      loginIpMaxFailures: 100,
      registerIpMax: 10,
      firstRunInviteMaxUses: 1_000,
      firstRunInviteDays: 365,
    });
  });

  it('reads seconds as milliseconds and counts as whole numbers', () => {
    const c = loadAuthConfig({
      LOGIN_LOCK_SECONDS: '1.5',
      LOGIN_MAX_FAILURES: '20',
      LOGIN_FREE_FAILURES: '0',
    });
    expect(c.loginLockMs).toBe(1_500);
    expect(c.loginMaxFailures).toBe(20);
    expect(c.loginFreeFailures).toBe(0);
  });

  it('refuses a bad value naming the variable', () => {
    expect(() => loadAuthConfig({ LOGIN_MAX_FAILURES: '2.5' })).toThrow(/LOGIN_MAX_FAILURES/);
    expect(() => loadAuthConfig({ REGISTER_IP_MAX: '0' })).toThrow(/REGISTER_IP_MAX/);
    expect(() => loadAuthConfig({ LOGIN_LOCK_SECONDS: 'soon' })).toThrow(/LOGIN_LOCK_SECONDS/);
  });
});
