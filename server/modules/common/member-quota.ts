/**
 * Per-member quotas of the endpoints a member could otherwise call without end (support/send,
 * user/feedback, search/addHistory): rate-limiter-flexible over our own database (table
 * `auth_throttle`, as the login throttle in server/modules/auth/throttle.ts and the points-code
 * limiter), so every server process sharing a database shares the counts, each count is one
 * atomic upsert (concurrent requests are all counted) and a restart does not reset them.
 * Past the quota the request is refused with `tooFrequent` (429) before anything is written.
 *
 * Limits (⚠ product choice, the spec names none): generous for a person typing, far below a
 * script (the reproduction: 300 support messages in 7 s).
 */
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '../../db/client';
import { authThrottle } from '../../db/schema';
import { fail } from './errors';

/** Requests per member per window (seconds), by quota name. */
export const MEMBER_QUOTAS = {
  /** A support chat message (REST; the support socket has its own per-connection rate). */
  supportSend: { points: 20, durationS: 60 },
  /** A feedback form. */
  feedback: { points: 5, durationS: 3_600 },
  /** A search-history entry (one per instrument opened from search). */
  searchHistory: { points: 60, durationS: 60 },
} as const;
export type MemberQuota = keyof typeof MEMBER_QUOTAS;

/** The quotas of one app (buildApp's Services `memberQuotas`). */
export interface MemberQuotas {
  /**
   * Counts one request of `userId` against `quota`.
   * @throws AppError tooFrequent (429) once the member has used the window's quota
   */
  consume(quota: MemberQuota, userId: number): Promise<void>;
}

/** The quotas on `db`: one limiter per quota, built here once. */
export function createMemberQuotas(db: Db): MemberQuotas {
  const limiters = new Map(
    (Object.keys(MEMBER_QUOTAS) as MemberQuota[]).map((quota) => {
      const { points, durationS } = MEMBER_QUOTAS[quota];
      const limiter = new RateLimiterDrizzle({
        storeClient: db,
        schema: authThrottle,
        clearExpiredByTimeout: false,
        keyPrefix: `member-${quota}`,
        points,
        duration: durationS,
      });
      return [quota, limiter] as const;
    }),
  );
  return {
    async consume(quota, userId) {
      try {
        await limiters.get(quota)!.consume(String(userId));
      } catch (e) {
        if (e instanceof RateLimiterRes) throw fail('tooFrequent');
        throw e;
      }
    },
  };
}
