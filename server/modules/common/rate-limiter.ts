/**
 * The inbound message-rate limit of a socket connection (contract/realtime.ts, "Limits"): a token
 * bucket per connection, shared by the realtime gateway (server/realtime/budget.ts re-exports it)
 * and the support hub, which sits below the gateway and so cannot import it from there.
 */
import {
  WS_ABUSE_REFUSALS,
  WS_ABUSE_WINDOW_MS,
  WS_MESSAGE_BURST,
  WS_MESSAGES_PER_S,
} from '../../../contract/realtime';

/** A rate limiter's verdict on one incoming message. */
export type RateVerdict = 'ok' | 'refused' | 'abusive';

/** Per-connection inbound limit; `take` is called once per incoming message. */
export interface RateLimiter {
  take(nowMs: number): RateVerdict;
}

/**
 * A token bucket of `burst` tokens refilled at `perSecond`: a message takes a token or is
 * refused. A connection refused `abuseRefusals` times within `abuseWindowMs` (counted per fixed
 * window from its first refusal) is `abusive`: the caller closes it.
 */
export function createRateLimiter(
  opts: { perSecond: number; burst: number; abuseRefusals: number; abuseWindowMs: number } = {
    perSecond: WS_MESSAGES_PER_S,
    burst: WS_MESSAGE_BURST,
    abuseRefusals: WS_ABUSE_REFUSALS,
    abuseWindowMs: WS_ABUSE_WINDOW_MS,
  },
): RateLimiter {
  let tokens = opts.burst;
  let at: number | null = null;
  let windowStart = 0;
  let refusals = 0;
  return {
    take(nowMs) {
      if (at !== null) tokens = Math.min(opts.burst, tokens + ((nowMs - at) * opts.perSecond) / 1_000);
      at = nowMs;
      if (tokens >= 1) {
        tokens -= 1;
        return 'ok';
      }
      if (refusals === 0 || nowMs - windowStart > opts.abuseWindowMs) {
        windowStart = nowMs;
        refusals = 0;
      }
      refusals++;
      return refusals >= opts.abuseRefusals ? 'abusive' : 'refused';
    },
  };
}
