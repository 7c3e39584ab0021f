/**
 * contract/trading-session.ts marketTimeOfWall against the server's replay clock
 * (server/market/clock.ts): for wall instants up to several replayed days back, the market time it
 * derives from the clock's state now is the time of day the clock itself gives that instant, on
 * the event's replayed date; on the exchange clock it is the wall time.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { marketTimeOfWall, taipeiIsoDate } from '../../contract/trading-session';
import { createClock, REPLAY_DAY_MS } from '../../server/market/clock';
import { dayStartMs } from '../../server/market/calendar';

const EVENT_DATE = '2025-04-14';

describe('marketTimeOfWall', () => {
  it('matches the replay clock at any speed, across replayed days', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3 * 86_400_000 }),
        fc.integer({ min: 0, max: 10 * REPLAY_DAY_MS }),
        fc.constantFrom(1, 30, 60, 1200),
        (start, back, speed) => {
          const wall = Date.UTC(2026, 0, 5) + start;
          const clock = createClock({ mode: 'replay', speed, now: () => wall });
          const eventWall = wall - Math.floor(back / speed);
          const eventTimeOfDay = clock.position(eventWall).timeOfDayMs;
          const state = clock.state(clock.position(), '2025-05-02');
          const got = marketTimeOfWall({
            wallMs: eventWall,
            nowWallMs: wall,
            nowMarketMs: state.now,
            speed,
            replay: true,
            date: EVENT_DATE,
          });
          expect(taipeiIsoDate(got)).toBe(EVENT_DATE);
          expect(got - dayStartMs(EVENT_DATE)).toBe(eventTimeOfDay);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is the wall time on the exchange clock', () => {
    const w = Date.UTC(2026, 2, 2, 3);
    expect(
      marketTimeOfWall({
        wallMs: w,
        nowWallMs: w + 5_000,
        nowMarketMs: w + 5_000,
        speed: 1,
        replay: false,
        date: null,
      }),
    ).toBe(w);
  });
});
