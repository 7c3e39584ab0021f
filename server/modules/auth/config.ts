/**
 * Login and registration throttling and invitation-code settings from the environment
 * (documented in README "Configuration"; the reasoning is in
 * docs/adr/0021-login-registration-and-invitations.md). Durations are milliseconds in the Config, given in seconds
 * (`*_SECONDS`) or days in the environment.
 *
 * Per account (the account name as typed, known or not, so a lock says nothing about existence):
 * - LOGIN_FREE_FAILURES (3): consecutive failures answered at once.
 * - LOGIN_DELAY_SECONDS (1): after them, each failure makes the account wait before its next try,
 *   doubling with every further failure (1 s, 2 s, 4 s, …); a try within the wait is `tooFrequent`.
 * - LOGIN_MAX_FAILURES (10): consecutive failures (within LOGIN_FAILURE_WINDOW_SECONDS, 86400)
 *   that lock the account for LOGIN_LOCK_SECONDS (900 = 15 min; the correct password is refused
 *   too). Each further lock within a day doubles, capped at LOGIN_MAX_LOCK_SECONDS (86400).
 *   A successful login resets the count. OWASP Authentication Cheat Sheet, "Account lockout":
 *   lockout threshold, observation window and duration are the three settings.
 * Per client address (request IP):
 * - LOGIN_IP_MAX_FAILURES (100) failed logins within LOGIN_IP_WINDOW_SECONDS (3600) block the
 *   address for LOGIN_IP_LOCK_SECONDS (3600): higher than per account, since one address may be a
 *   whole office behind NAT.
 * - REGISTER_IP_MAX (10) registrations tried within REGISTER_IP_WINDOW_SECONDS (3600); more are
 *   `tooFrequent` until the window ends.
 * Invitation codes: the first-run code allows FIRST_RUN_INVITE_MAX_USES (1000) registrations and
 * expires after FIRST_RUN_INVITE_DAYS (365); codes an operator creates default to
 * INVITE_DEFAULT_MAX_USES (1) and INVITE_DEFAULT_DAYS (30); a verified member's own code
 * (server/modules/wallet/invites.ts) allows INVITE_MEMBER_MAX_USES (20) and is valid for
 * INVITE_MEMBER_DAYS (180).
 */

/** The auth part of the server's Config (server/config.ts). */
export interface AuthConfig {
  loginFreeFailures: number;
  loginDelayMs: number;
  loginMaxFailures: number;
  loginFailureWindowMs: number;
  loginLockMs: number;
  loginMaxLockMs: number;
  loginIpMaxFailures: number;
  loginIpWindowMs: number;
  loginIpLockMs: number;
  registerIpMax: number;
  registerIpWindowMs: number;
  firstRunInviteMaxUses: number;
  firstRunInviteDays: number;
  inviteDefaultMaxUses: number;
  inviteDefaultDays: number;
  /** A verified member's own code (user/invite): registrations it allows, days it is valid. */
  inviteMemberMaxUses: number;
  inviteMemberDays: number;
}

const SECOND = 1_000;
const DAY = 86_400_000;

/** The defaults named in the module docstring. */
export const AUTH_DEFAULTS: AuthConfig = {
  loginFreeFailures: 3,
  loginDelayMs: 1 * SECOND,
  loginMaxFailures: 10,
  loginFailureWindowMs: DAY,
  loginLockMs: 900 * SECOND,
  loginMaxLockMs: DAY,
  loginIpMaxFailures: 100,
  loginIpWindowMs: 3_600 * SECOND,
  loginIpLockMs: 3_600 * SECOND,
  registerIpMax: 10,
  registerIpWindowMs: 3_600 * SECOND,
  firstRunInviteMaxUses: 1_000,
  firstRunInviteDays: 365,
  inviteDefaultMaxUses: 1,
  inviteDefaultDays: 30,
  inviteMemberMaxUses: 20,
  inviteMemberDays: 180,
};

function num(
  v: string | undefined,
  dflt: number,
  name: string,
  opts: { min: number; integer: boolean },
): number {
  if (v === undefined || v.trim() === '') return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || n < opts.min || (opts.integer && !Number.isSafeInteger(n)))
    throw new Error(
      `${name} must be ${opts.integer ? 'a whole number' : 'a number'} ≥ ${opts.min}, got ${v}`,
    );
  return n;
}

const count = (env: NodeJS.ProcessEnv, name: string, dflt: number, min = 1) =>
  num(env[name], dflt, name, { min, integer: true });
const seconds = (env: NodeJS.ProcessEnv, name: string, dfltMs: number) =>
  num(env[name], dfltMs / SECOND, name, { min: 0.001, integer: false }) * SECOND;

/** Reads the auth settings; throws naming the variable on an invalid value. */
export function loadAuthConfig(env: NodeJS.ProcessEnv): AuthConfig {
  const d = AUTH_DEFAULTS;
  return {
    loginFreeFailures: count(env, 'LOGIN_FREE_FAILURES', d.loginFreeFailures, 0),
    loginDelayMs: seconds(env, 'LOGIN_DELAY_SECONDS', d.loginDelayMs),
    loginMaxFailures: count(env, 'LOGIN_MAX_FAILURES', d.loginMaxFailures),
    loginFailureWindowMs: seconds(env, 'LOGIN_FAILURE_WINDOW_SECONDS', d.loginFailureWindowMs),
    loginLockMs: seconds(env, 'LOGIN_LOCK_SECONDS', d.loginLockMs),
    loginMaxLockMs: seconds(env, 'LOGIN_MAX_LOCK_SECONDS', d.loginMaxLockMs),
    loginIpMaxFailures: count(env, 'LOGIN_IP_MAX_FAILURES', d.loginIpMaxFailures),
    loginIpWindowMs: seconds(env, 'LOGIN_IP_WINDOW_SECONDS', d.loginIpWindowMs),
    loginIpLockMs: seconds(env, 'LOGIN_IP_LOCK_SECONDS', d.loginIpLockMs),
    registerIpMax: count(env, 'REGISTER_IP_MAX', d.registerIpMax),
    registerIpWindowMs: seconds(env, 'REGISTER_IP_WINDOW_SECONDS', d.registerIpWindowMs),
    firstRunInviteMaxUses: count(env, 'FIRST_RUN_INVITE_MAX_USES', d.firstRunInviteMaxUses),
    firstRunInviteDays: count(env, 'FIRST_RUN_INVITE_DAYS', d.firstRunInviteDays),
    inviteDefaultMaxUses: count(env, 'INVITE_DEFAULT_MAX_USES', d.inviteDefaultMaxUses),
    inviteDefaultDays: count(env, 'INVITE_DEFAULT_DAYS', d.inviteDefaultDays),
    inviteMemberMaxUses: count(env, 'INVITE_MEMBER_MAX_USES', d.inviteMemberMaxUses),
    inviteMemberDays: count(env, 'INVITE_MEMBER_DAYS', d.inviteMemberDays),
  };
}
