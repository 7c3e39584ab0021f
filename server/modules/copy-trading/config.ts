/**
 * Copy-trading settings from the environment (documented in README "Configuration"):
 *
 * - MENTOR_MIN_ACCOUNT_DAYS (30, rules.ts MENTOR_CRITERIA.minAccountDays): whole days since
 *   registration before a member may apply to be a mentor (the application still waits for an
 *   operator's review). 0 is valid (no age requirement; the end-to-end server uses it, as it
 *   cannot age an account).
 */
import { nonNegativeInt } from '../day-trading/config';
import { MENTOR_CRITERIA } from './rules';

/** The copy-trading part of the server's Config (server/config.ts). */
export interface CopyTradingConfig {
  mentorMinAccountDays: number;
}

/** Reads the copy-trading settings; throws naming the variable on an invalid value. */
export function loadCopyTradingConfig(env: NodeJS.ProcessEnv): CopyTradingConfig {
  return {
    mentorMinAccountDays: nonNegativeInt(
      env.MENTOR_MIN_ACCOUNT_DAYS,
      MENTOR_CRITERIA.minAccountDays,
      'MENTOR_MIN_ACCOUNT_DAYS',
    ),
  };
}
