/**
 * Login and registration throttling (rate-limiter-flexible, its "brute-force protection"
 * pattern). Every refusal is the error key `tooFrequent` (429), the spec's "too frequent
 * submission". The settings and their defaults are in ./config.ts.
 *
 * Lock the guessing, not the owner (OWASP Authentication Cheat Sheet, "Account lockout": a lock
 * per account alone lets anyone lock anyone out). A login attempt is counted on three counters:
 * - per guesser, the pair (account, client address), or (account, known device) when the attempt
 *   carries a known device's token (./devices.ts): consecutive failures past the free ones wait a
 *   growing delay, then lock the pair for a time that doubles with each lock within a day;
 * - per client address, across accounts: too many failures block the address;
 * - per account, across addresses (a slower guard against guessing spread over many addresses):
 *   past LOGIN_ACCOUNT_MAX_FAILURES in its window, the account is refused to every unknown device.
 * A known device skips the address and account counters: its owner logs in while someone else's
 * guessing has locked their address or the account; the device's own pair counter still locks
 * guessing with a stolen device token.
 *
 * Store: RateLimiterDrizzle over our own database (table `auth_throttle`, migration 0006). One
 * code path on embedded PGlite and on PostgreSQL, tested on both; the counters survive a restart
 * (a lock cannot be lifted by crashing the server), and every server process sharing a
 * PostgreSQL database shares them. Each step is one atomic upsert (INSERT … ON CONFLICT DO UPDATE),
 * so concurrent attempts are all counted. Cost: a few small writes per login, negligible next to
 * the argon2id verification (tens of ms).
 *
 * Attempts are counted before the password is checked and refunded on success, so a burst of
 * parallel guesses cannot slip past the counters while the first ones are being verified.
 * Unknown accounts are counted like known ones: a lock says nothing about whether one exists.
 */
import { lt } from 'drizzle-orm';
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '../../db/client';
import { authThrottle } from '../../db/schema';
import { fail } from '../common/errors';
import type { AuthConfig } from './config';

/** What a login attempt that passed the throttle reports back once the password was checked. */
export interface LoginAttempt {
  /** The password was right: the account's failures, delay and locks are cleared; the address's attempt refunded. */
  succeeded(): Promise<void>;
  /** The password (or account) was wrong: past the free failures, the account waits a growing delay. */
  failed(): Promise<void>;
}

/** The throttle of one database (one per app). */
export interface AuthThrottle {
  /**
   * Counts a login attempt for `account` from `ip`, before the password is checked. `device` is
   * the stored hash of a known device of `account` (./devices.ts), when the attempt carries one.
   * @throws AppError tooFrequent (429) while the pair (account, address or device) waits or is
   *   locked, the address is blocked, or (unknown devices only) the account is
   */
  beginLogin(account: string, ip: string, device?: string | null): Promise<LoginAttempt>;
  /**
   * Counts a registration attempt from `ip`.
   * @throws AppError tooFrequent (429) past REGISTER_IP_MAX attempts in the window
   */
  beginRegistration(ip: string): Promise<void>;
  /**
   * Counts a password-reset request from `ip` (its own counter, with the registration limits).
   * @throws AppError tooFrequent (429) past REGISTER_IP_MAX requests in the window
   */
  beginResetRequest(ip: string): Promise<void>;
}

const sec = (ms: number) => ms / 1_000;
/** Limiter rejections are RateLimiterRes; anything else (a database error) is rethrown. */
const rejection = (e: unknown): RateLimiterRes => {
  if (e instanceof RateLimiterRes) return e;
  throw e;
};
/** Expired rows are swept at most this often (on a login), so the table stays small. */
const SWEEP_EVERY_MS = 300_000;

/** Builds the throttle on `db` with the limits of `cfg` (one per app: buildApp's Services `authThrottle`). */
export function createAuthThrottle(db: Db, cfg: AuthConfig): AuthThrottle {
  const store = { storeClient: db, schema: authThrottle, clearExpiredByTimeout: false };
  /** Consecutive failures per guesser (account + address or device); blocked (growing) past the maximum. */
  const pairFails = new RateLimiterDrizzle({
    ...store,
    keyPrefix: 'login-pair',
    points: cfg.loginMaxFailures,
    duration: sec(cfg.loginFailureWindowMs),
  });
  /** The wait after a failure past the free ones: present while it runs. */
  const pairWait = new RateLimiterDrizzle({ ...store, keyPrefix: 'login-wait', points: 1, duration: 1 });
  /** Locks of a guesser within a day: the n-th lock lasts loginLockMs × 2^(n−1). */
  const pairLocks = new RateLimiterDrizzle({
    ...store,
    keyPrefix: 'login-locks',
    points: 1_000_000,
    duration: 86_400,
  });
  /** Failures per account from every unknown device: the slow guard. */
  const accountFails = new RateLimiterDrizzle({
    ...store,
    keyPrefix: 'login-guard',
    points: cfg.loginAccountMaxFailures,
    duration: sec(cfg.loginAccountWindowMs),
    blockDuration: sec(cfg.loginAccountLockMs),
  });
  const ipFails = new RateLimiterDrizzle({
    ...store,
    keyPrefix: 'login-ip',
    points: cfg.loginIpMaxFailures,
    duration: sec(cfg.loginIpWindowMs),
    blockDuration: sec(cfg.loginIpLockMs),
  });
  const ipRegistrations = new RateLimiterDrizzle({
    ...store,
    keyPrefix: 'register-ip',
    points: cfg.registerIpMax,
    duration: sec(cfg.registerIpWindowMs),
  });

  const ipResetRequests = new RateLimiterDrizzle({
    ...store,
    keyPrefix: 'reset-ip',
    points: cfg.registerIpMax,
    duration: sec(cfg.registerIpWindowMs),
  });
  /** One step of an address counter; tooFrequent once it is used up. */
  const consumeIp = async (limiter: RateLimiterDrizzle, ip: string) => {
    try {
      await limiter.consume(ip);
    } catch (e) {
      rejection(e);
      throw fail('tooFrequent');
    }
  };

  let lastSweep = Date.now();
  const sweep = () => {
    if (Date.now() - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = Date.now();
    void db
      .delete(authThrottle)
      .where(lt(authThrottle.expire, new Date()))
      .catch(() => undefined);
  };

  return {
    async beginLogin(account, ip, device) {
      sweep();
      // JSON keeps the two parts apart whatever they hold (an IPv6 address has colons).
      const pair = JSON.stringify(device ? [account, 'device', device] : [account, ip]);
      const [ipState, acctState, waiting] = await Promise.all([
        device ? null : ipFails.get(ip),
        device ? null : accountFails.get(account),
        pairWait.get(pair),
      ]);
      if (ipState && ipState.consumedPoints > cfg.loginIpMaxFailures) throw fail('tooFrequent');
      if (acctState && acctState.consumedPoints > cfg.loginAccountMaxFailures) throw fail('tooFrequent');
      if (waiting && waiting.msBeforeNext > 0) throw fail('tooFrequent');
      let failures: number;
      try {
        failures = (await pairFails.consume(pair)).consumedPoints;
      } catch (e) {
        const res = rejection(e);
        if (res.consumedPoints === cfg.loginMaxFailures + 1) {
          // This attempt crossed the threshold: lock, longer for each lock within a day.
          const locks = (await pairLocks.consume(pair)).consumedPoints;
          const lockMs = Math.min(cfg.loginLockMs * 2 ** (locks - 1), cfg.loginMaxLockMs);
          await pairFails.block(pair, sec(lockMs));
        }
        throw fail('tooFrequent');
      }
      /** Counters consumed so far, refunded when a later one refuses or the password is right. */
      const shared: Array<[RateLimiterDrizzle, string]> = device
        ? []
        : [
            [ipFails, ip],
            [accountFails, account],
          ];
      for (let i = 0; i < shared.length; i++) {
        const [limiter, key] = shared[i]!;
        try {
          await limiter.consume(key);
        } catch (e) {
          rejection(e);
          await Promise.all([
            pairFails.reward(pair, 1),
            ...shared.slice(0, i).map(([l, k]) => l.reward(k, 1)),
          ]);
          throw fail('tooFrequent');
        }
      }
      return {
        async succeeded() {
          await Promise.all([
            pairFails.delete(pair),
            pairWait.delete(pair),
            pairLocks.delete(pair),
            ...shared.map(([l, k]) => l.reward(k, 1)),
          ]);
        },
        async failed() {
          const past = failures - cfg.loginFreeFailures;
          if (past <= 0 || failures >= cfg.loginMaxFailures) return;
          const waitMs = Math.min(cfg.loginDelayMs * 2 ** (past - 1), cfg.loginLockMs);
          await pairWait.set(pair, 1, sec(waitMs));
        },
      };
    },

    beginRegistration: (ip) => consumeIp(ipRegistrations, ip),
    beginResetRequest: (ip) => consumeIp(ipResetRequests, ip),
  };
}
